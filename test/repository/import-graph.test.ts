/**
 * Rules about the source tree as a whole. No import cycles among the service's modules: a cycle makes the order in
 * which modules run depend on which one is loaded first, and ties modules together that a move into feature folders
 * must keep apart. Type-only imports count too: they vanish at run time but still bind the two files. No .ts file
 * over 350 lines (tests included): a longer file holds more than one topic and is split by topic.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '#infra/constructs/bundling.ts';
import { importCycles, importGraph, sourceFiles, type ImportEdge } from '#test/support/import-graph.ts';

const SOURCE_DIRS = ['shared', 'functions', 'infra', 'web/src', 'bench', 'client'];
const MAX_LINES = 350;
/** Generated from the OpenAPI description (npm run client:generate), never edited by hand. */
const GENERATED = new Set(['client/schema.d.ts']);
/** Over the limit and being split elsewhere: each must still be over it (else drop it from here). */
const SPLIT_ELSEWHERE = new Set<string>([]);

describe('the import graph', () => {
  const graph = importGraph(sourceFiles(SOURCE_DIRS));

  it('reads every source folder and resolves the package.json import aliases', () => {
    const edges = [...graph.values()].flat();
    expect(graph.size).toBeGreaterThan(300);
    for (const dir of SOURCE_DIRS) expect([...graph.keys()].some((file) => file.startsWith(`${dir}/`)), dir).toBe(true);
    // `#shared/...` in functions/api resolves into the feature folders.
    expect(graph.get('functions/api/create-envelope.ts')?.some((e) => e.to.startsWith('shared/envelopes/'))).toBe(true);
    expect(edges.some((e) => e.typeOnly) && edges.some((e) => e.dynamic)).toBe(true);
  });

  it('has no cycle', () => {
    const cycles = importCycles(graph, () => true).map((files) => files.join(' <-> '));
    expect(cycles, 'import cycles (move what both files need into a module of its own)').toEqual([]);
  });

  it('finds a cycle, a type-only one included, and only along the edges it is asked to follow', () => {
    const edge = (to: string, typeOnly = false): ImportEdge => ({ to, typeOnly, dynamic: false });
    const made = new Map<string, ImportEdge[]>([
      ['a.ts', [edge('b.ts')]], ['b.ts', [edge('c.ts')]], ['c.ts', [edge('a.ts', true)]], ['d.ts', [edge('a.ts'), edge('d.ts')]],
    ]);
    expect(importCycles(made, () => true)).toEqual([['a.ts', 'b.ts', 'c.ts'], ['d.ts']]);
    expect(importCycles(made, (e) => !e.typeOnly)).toEqual([['d.ts']]);
  });
});

const SKIPPED = new Set(['node_modules', 'dist', 'cdk.out', '.data', '.git']);

/** Every .ts and .tsx file of the repository (tests and declaration files included), relative to the root. */
function everyTsFile(dir = ''): string[] {
  return readdirSync(join(REPO_ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) return SKIPPED.has(entry.name) ? [] : everyTsFile(path);
    return entry.isFile() && /\.tsx?$/.test(entry.name) ? [path] : [];
  }).sort();
}

const lineCount = (file: string) => readFileSync(join(REPO_ROOT, file), 'utf8').replace(/\n$/, '').split('\n').length;

describe('file length', () => {
  const files = everyTsFile();

  it(`keeps every .ts file at ${String(MAX_LINES)} lines or fewer`, () => {
    expect(files.length).toBeGreaterThan(400);
    const long = files.filter((file) => !GENERATED.has(file) && !SPLIT_ELSEWHERE.has(file)).map((file) => [file, lineCount(file)] as const).filter(([, lines]) => lines > MAX_LINES);
    expect(long.map(([file, lines]) => `${file}: ${String(lines)} lines`), 'split each by topic into files with names of their own').toEqual([]);
  });

  it('exempts only files that still need it', () => {
    for (const file of [...GENERATED, ...SPLIT_ELSEWHERE]) expect(lineCount(file), file).toBeGreaterThan(MAX_LINES);
  });
});
