/**
 * What every figure of `npm run bench` shares: the run's size (quick or full), medians and percentiles, ABAB
 * alternation of variants, child processes, and number formatting.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface RunSize {
  quick: boolean;
  /** Measured runs per variant of an in-process figure (seal). */
  runs: number;
  /** Unmeasured runs per variant first (JIT, caches, first-touch allocation). */
  warmup: number;
  /** Seal warm-up runs per variant, on a 1-page file; and measured runs on the 25 MB file. */
  sealWarmup: number;
  largeSealRuns: number;
  /** Seconds per autocannon run, and how many ABAB rounds of the API figure. */
  apiSeconds: number;
  apiRounds: number;
  /** Envelopes in the lifecycle figure. */
  envelopes: number;
  /** Fresh processes per bundle for the cold-init figure. */
  coldStarts: number;
}

export function runSize(argv: readonly string[]): RunSize {
  const quick = argv.includes('--quick');
  return quick
    ? { quick, runs: 3, warmup: 1, sealWarmup: 5, largeSealRuns: 2, apiSeconds: 2, apiRounds: 1, envelopes: 5, coldStarts: 1 }
    : { quick, runs: 15, warmup: 2, sealWarmup: 10, largeSealRuns: 7, apiSeconds: 10, apiRounds: 3, envelopes: 50, coldStarts: 5 };
}

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** Nearest-rank percentile (p in 0..100); NaN for no values. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(sorted.length, rank) - 1] ?? NaN;
}

/**
 * Runs every variant `warmup + runs` times, interleaved (A B C, then B C A, ...: each variant is as often first as
 * any other), and answers the measured milliseconds per variant, warm-up runs dropped.
 */
export async function alternate<K extends string>(variants: Record<K, () => Promise<unknown>>, size: { runs: number; warmup: number }): Promise<Record<K, number[]>> {
  const names = Object.keys(variants) as K[];
  const times = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<K, number[]>;
  for (let round = 0; round < size.warmup + size.runs; round++) {
    const order = names.map((_, i) => names[(i + round) % names.length]).filter((n) => n !== undefined);
    for (const name of order) {
      const start = performance.now();
      await variants[name]();
      const elapsed = performance.now() - start;
      if (round >= size.warmup) times[name].push(elapsed);
    }
  }
  return times;
}

/** Runs a bench script in a fresh Node process (with the tsx loader this process runs under) and parses its last stdout line as JSON. */
export function runChild<T>(script: string | URL, args: readonly string[], env: Record<string, string> = {}): Promise<T> {
  const file = script instanceof URL ? fileURLToPath(script) : script;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, file, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', ...env },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => { out += chunk.toString('utf8'); });
    child.stderr.on('data', (chunk: Buffer) => { err += chunk.toString('utf8'); });
    child.on('error', reject);
    child.on('close', (code) => {
      const last = out.trim().split('\n').at(-1) ?? '';
      if (code !== 0) { reject(new Error(`${file} ${args.join(' ')} exited ${String(code)}: ${err.slice(-2000)}`)); return; }
      try { resolve(JSON.parse(last) as T); } catch { reject(new Error(`${file} printed no JSON result: ${out.slice(-500)} ${err.slice(-1000)}`)); }
    });
  });
}

export const fmt = {
  ms: (x: number) => (Number.isNaN(x) ? 'n/a' : x >= 100 ? `${x.toFixed(0)} ms` : x >= 10 ? `${x.toFixed(1)} ms` : `${x.toFixed(2)} ms`),
  mb: (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`,
  kb: (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`,
  size: (bytes: number) => (bytes >= 2 ** 20 ? `${(bytes / 2 ** 20).toFixed(1)} MB` : `${(bytes / 1024).toFixed(1)} KB`),
  ratio: (x: number) => (!Number.isFinite(x) ? 'n/a' : x < 0.01 ? `${x.toPrecision(2)}x` : `${x.toFixed(2)}x`),
  rate: (x: number) => (Number.isFinite(x) ? `${x.toFixed(0)}/s` : 'n/a'),
  usd: (x: number) => (x >= 0.01 ? `$${x.toFixed(4)}` : x >= 0.000_01 ? `$${x.toFixed(6)}` : `$${x.toExponential(2)}`),
  int: (x: number) => x.toLocaleString('en-US', { maximumFractionDigits: 1 }),
};

/** One row of the results table: the figure, what was measured, our value, the peer's or the floor's, their ratio, notes. */
export interface Row {
  figure: string;
  what: string;
  ours: string;
  other?: string;
  ratio?: string;
  note?: string;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
