/**
 * `npm run bench` (`-- --quick` for a few runs per figure; `-- --only=seal,api` for some figures while working on
 * them). Prints one markdown table and writes it, with the machine it ran on, to bench/RESULTS.md. Never part of
 * `npm test`. What each figure measures and how: docs/performance.md.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { apiFigure, type ApiResult } from './api.ts';
import { bundleFigure } from './bundles.ts';
import { bulkSendFigure, pacedBulkSendFigure } from './bulk-send.ts';
import { capacityFigure } from './capacity.ts';
import { costFigure } from './cost.ts';
import { editorFigure } from './editor.ts';
import { fixedCostFigure } from './fixed-cost.ts';
import { intakeFigure } from './intake.ts';
import { runSize, type Row } from './lib.ts';
import { lifecycleFigure, type LifecycleResult } from './lifecycle.ts';
import { sealFigure } from './seal.ts';
import { sealLevelsFigure } from './seal-levels.ts';
import { sealKeysFigure } from './seal-keys.ts';
import { startBenchStack } from './stack.ts';
import { signerFigure } from './signer-page.ts';
import { verifyFigure } from './verify.ts';

type Figure = 'seal' | 'seal-keys' | 'api' | 'lifecycle' | 'bundles' | 'cost' | 'capacity' | 'levels' | 'verify' | 'bulk' | 'intake' | 'editor' | 'signer';

function machine(): string {
  const cpu = cpus();
  return [
    `CPU: ${cpu[0]?.model.trim() ?? 'unknown'}, ${String(cpu.length)} cores`,
    `memory: ${(totalmem() / 2 ** 30).toFixed(1)} GiB`,
    `Node ${process.version} (${process.platform} ${process.arch})`,
    `load average at start: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`,
  ].join('; ');
}

function table(rows: readonly Row[]): string {
  const cell = (s: string | undefined) => (s ?? '').replaceAll('|', '\\|');
  return [
    '| Figure | What | Ours | Peer or floor | Ratio | Notes |',
    '|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${cell(r.figure)} | ${cell(r.what)} | ${cell(r.ours)} | ${cell(r.other)} | ${cell(r.ratio)} | ${cell(r.note)} |`),
  ].join('\n');
}

async function main(): Promise<void> {
  const size = runSize(process.argv);
  const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length).split(',');
  const wanted = (f: Figure) => !only || only.includes(f);
  const started = new Date();
  const startMs = performance.now();
  const scratch = mkdtempSync(join(tmpdir(), 'esign-bench-'));
  const rows: Row[] = [];
  const step = (name: string) => { console.error(`[bench] ${name} (${((performance.now() - startMs) / 1000).toFixed(0)} s)`); };
  try {
    if (wanted('seal')) { step('1 seal'); rows.push(...(await sealFigure(size, scratch))); }
    if (wanted('seal-keys')) { step('1b seal key'); rows.push(...(await sealKeysFigure(size, scratch))); }
    let api: ApiResult | undefined;
    let lifecycle: LifecycleResult | undefined;
    if (wanted('api') || wanted('lifecycle') || wanted('cost') || wanted('capacity') || wanted('bulk') || wanted('editor')) {
      step('local stack');
      const stack = await startBenchStack();
      try {
        if (wanted('api') || wanted('capacity')) { step('2 api'); api = await apiFigure(stack, size); rows.push(...api.rows); }
        if (wanted('lifecycle') || wanted('cost') || wanted('capacity')) { step('3 lifecycle'); lifecycle = await lifecycleFigure(stack, size); rows.push(...lifecycle.rows); }
        if (wanted('bulk')) { step('7 bulk send'); rows.push(...(await bulkSendFigure(stack, size))); }
        if (wanted('editor')) { step('9 editor'); rows.push(...(await editorFigure(stack, size))); }
      } finally {
        await stack.stop();
      }
    }
    if (wanted('bulk')) { step('7 bulk send, mail paced'); rows.push(...(await pacedBulkSendFigure(size))); }
    if (wanted('bundles')) { step('4 bundles'); rows.push(...(await bundleFigure(size))); }
    if (lifecycle && wanted('cost')) { step('5 cost'); rows.push(...costFigure(lifecycle), ...fixedCostFigure()); }
    if (lifecycle && wanted('capacity')) { step('6 capacity'); rows.push(...capacityFigure(lifecycle, api)); }
    if (wanted('levels')) { step('1c seal levels'); rows.push(...(await sealLevelsFigure(size, scratch))); }
    if (wanted('verify')) { step('11 verify'); rows.push(...(await verifyFigure(size, scratch))); }
    if (wanted('intake')) { step('8 intake'); rows.push(...(await intakeFigure(size, scratch))); }
    if (wanted('signer')) { step('10 signer'); rows.push(...(await signerFigure(size))); }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const seconds = (performance.now() - startMs) / 1000;
  const output = table(rows);
  console.log(output);
  const header = [
    '# Benchmark results',
    '',
    `Run: \`npm run bench${size.quick ? ' -- --quick' : ''}\`${only ? ` (only ${only.join(', ')})` : ''}, ${started.toISOString()}, ${seconds.toFixed(0)} s.`,
    `Machine: ${machine()}. Shared with other engineers' test runs: figures are medians of alternated variants, and still noisy.`,
    '',
  ].join('\n');
  writeFileSync(new URL('./RESULTS.md', import.meta.url), `${header}\n${output}\n`);
  console.error(`[bench] done in ${seconds.toFixed(0)} s; written to bench/RESULTS.md`);
}

await main();
