/**
 * Figure 4: every function of the manifest bundled exactly as CDK bundles it, its size (JavaScript only, map excluded),
 * its cold init (importing the bundle in a fresh Node process with only its synthesized template's environment) and
 * its first event (secrets read, deps built, first clients loaded), through the same harness as the cold-start test
 * (test/support/cold-start.ts), beside importing an empty module.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { accessOf } from '#infra/stacks/access.ts';
import { measureBundles, type ColdStart } from '#test/support/cold-start.ts';
import { fmt, median, type Row, type RunSize } from './lib.ts';

/** ServiceFunction's memory when an access row names none (infra/constructs/service-function.ts). */
export const DEFAULT_MEMORY_MB = 512;
export const memoryOf = (handler: string) => accessOf(handler).memorySize ?? DEFAULT_MEMORY_MB;

/** Import time of an empty module in a fresh process, in ms: the floor of any cold init. */
function emptyImport(): number {
  const dir = mkdtempSync(join(tmpdir(), 'bench-empty-'));
  const file = join(dir, 'empty.mjs');
  writeFileSync(file, 'export {};\n');
  const script = 'const t = performance.now(); await import(process.env.BENCH_BUNDLE); console.log(JSON.stringify(performance.now() - t));';
  const run = spawnSync(process.execPath, ['--enable-source-maps', '--input-type=module', '-e', script], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', BENCH_BUNDLE: pathToFileURL(file).href } });
  rmSync(dir, { recursive: true, force: true });
  return Number(run.stdout.trim().split('\n').at(-1));
}

/** Cold starts of every function, `size.coldStarts` rounds (each a fresh process per function), medians. */
export async function bundleFigure(size: RunSize): Promise<Row[]> {
  const rounds: ColdStart[][] = [];
  const emptyMs: number[] = [];
  for (let round = 0; round < size.coldStarts; round++) {
    emptyMs.push(emptyImport());
    rounds.push(await measureBundles({ concurrency: 1 }));
  }
  const handlers = (rounds[0] ?? []).map((r) => r.handler).sort();
  const of = (handler: string) => rounds.map((r) => r.find((c) => c.handler === handler)).filter((c): c is ColdStart => c !== undefined);
  const bundles = handlers.map((handler) => ({
    handler, bytes: of(handler)[0]?.bytes ?? 0, initMs: median(of(handler).map((c) => c.initMs)), firstMs: median(of(handler).map((c) => c.firstEventMs)),
  }));
  const n = `median of ${String(size.coldStarts)} fresh processes`;
  const api = bundles.filter((b) => b.handler.startsWith('functions/api/'));
  const worst = <T>(list: T[], by: (b: T) => number) => list.reduce((a, b) => (by(b) > by(a) ? b : a));
  const biggest = worst(api, (b) => b.bytes);
  const slowest = worst(api, (b) => b.initMs);
  const rows: Row[] = [{
    figure: '4 Bundles',
    what: `API functions (${String(api.length)}): largest, slowest cold init (${n})`,
    ours: `${fmt.kb(biggest.bytes)} (${relative('functions/api', biggest.handler)}); ${fmt.ms(slowest.initMs)} (${relative('functions/api', slowest.handler)})`,
    other: `empty module ${fmt.ms(median(emptyMs))}`,
    note: 'target: under 300 KB and 60 ms (the PDF intake routes and the seal tasks stated apart)',
  }];
  for (const b of bundles) {
    rows.push({ figure: '4 Bundles', what: b.handler, ours: `${fmt.kb(b.bytes)}, init ${fmt.ms(b.initMs)}, first event ${fmt.ms(b.firstMs)}`, note: `${String(memoryOf(b.handler))} MB` });
  }
  return rows;
}
