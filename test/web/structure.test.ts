/** The page's modules import each other in one direction only: no cycle, type imports included (as madge counts them). */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(process.cwd(), 'web', 'src');
const files = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
  e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []);

/** Relative imports of a module (static, type-only and dynamic), as absolute paths. */
function importsOf(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  const specifiers = [...source.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+\.ts)'/g)].map((m) => m[1] ?? '');
  return specifiers.map((s) => resolve(dirname(file), s));
}

describe('web/src', () => {
  it('has no import cycle', () => {
    const graph = new Map(files(SRC).map((f) => [f, importsOf(f)]));
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, path: string[]) => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        cycles.push([...path.slice(path.indexOf(file)), file].map((f) => relative(SRC, f)).join(' -> '));
        return;
      }
      state.set(file, 'open');
      for (const next of graph.get(file) ?? []) visit(next, [...path, file]);
      state.set(file, 'done');
    };
    for (const file of graph.keys()) visit(file, []);
    expect(graph.size).toBeGreaterThan(20);
    expect(cycles).toEqual([]);
  });
});
