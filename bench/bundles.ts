/**
 * Figure 4: the cold init of every function as a ratio to a floor. Every function of the manifest is bundled exactly
 * as CDK bundles it (infra/constructs/bundling.ts), and so is the floor: a function holding only the DynamoDB
 * document client with the commands the table adapters send, which any function that reads the table must load.
 * Each round imports, in fresh Node processes, the floor and then each function beside a floor import of its own
 * (the order turned every round), so load on the machine falls on both alike; a function's ratio is the median of
 * its imports over the median of its floor imports. Targets: 1.3x, the PDF intake routes and the seal chain 2.0x.
 *
 * A function's import is what its first request cannot avoid: index.mjs, then the chunks holding the table client
 * (@aws-sdk/client-dynamodb, lib-dynamodb and the table adapters, found from the metafile) where its bundle has
 * them. shared/deps.ts loads the table client by a dynamic import on first use, so importing index.mjs alone would
 * leave out what the floor imports statically and flatter the ratio.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { buildSync, type Metafile } from 'esbuild';
import { accessOf } from '#infra/stacks/access.ts';
import { BUNDLE_FILE, BUNDLE_OPTIONS, bundleFunction, codeBytes, REPO_ROOT } from '#infra/constructs/bundling.ts';
import { manifestHandlers } from '#infra/stacks/environment.ts';
import { bundleOptionsOf } from '#infra/stacks/functions.ts';
import { fmt, median, type Row, type RunSize } from './lib.ts';

/** ServiceFunction's memory when an access row names none (infra/constructs/service-function.ts). */
export const DEFAULT_MEMORY_MB = 512;
export const memoryOf = (handler: string) => accessOf(handler).memorySize ?? DEFAULT_MEMORY_MB;

/** The functions that read PDFs at their first request or seal them: their work is the PDF, so they may start slower. */
export const PDF_FUNCTIONS: readonly string[] = [
  'functions/api/create-envelope.ts', 'functions/api/upload-document.ts', 'functions/api/complete-upload.ts', 'functions/api/create-template.ts',
  'functions/api/upload-template-document.ts', 'functions/workers/seal.ts', 'functions/workers/finalize.ts', 'functions/workers/seal-sweep.ts',
  'functions/workers/seal-failed.ts',
];
export const targetOf = (handler: string) => (PDF_FUNCTIONS.includes(handler) ? 2.0 : 1.3);

/** The floor's source: the document client and the commands of shared/adapters/aws/dynamo-*.ts. */
const FLOOR = `
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DeleteCommand, DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
const commands = { BatchGetCommand, DeleteCommand, GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand };
let client;
export const handler = async (event) => (client ??= DynamoDBDocumentClient.from(new DynamoDBClient({}))).send(new commands[event.command](event.input));
`;

/** Only what Lambda's runtime sets: the functions read their configuration on the first event (shared/http/lambda.ts). */
const ENV = { PATH: process.env.PATH ?? '', AWS_REGION: 'us-east-1', AWS_LAMBDA_FUNCTION_NAME: 'bench', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' };
const IMPORT = 'const t = performance.now(); for (const file of process.argv.slice(1)) await import(file); console.log(JSON.stringify(performance.now() - t));';

/** The inputs of the table client: a function that reads the table loads them on its first request. */
const TABLE_CLIENT = ['node_modules/@aws-sdk/client-dynamodb/', 'node_modules/@aws-sdk/lib-dynamodb/', 'shared/adapters/aws/dynamo-table-adapters.ts'];

/** The chunks of a bundle (file names in its folder) that hold the table client. */
function tableChunks(metafile: Metafile): string[] {
  return Object.entries(metafile.outputs)
    .filter(([file, output]) => /\/chunk-\w+\.mjs$/.test(file) && Object.keys(output.inputs).some((input) => TABLE_CLIENT.some((part) => input.includes(part))))
    .map(([file]) => basename(file));
}

/** Milliseconds to import `dir`'s bundle, then `chunks` of it, in a fresh process. */
function importMs(dir: string, chunks: readonly string[] = []): number {
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', IMPORT, ...[BUNDLE_FILE, ...chunks].map((file) => join(dir, file))], { encoding: 'utf8', env: ENV });
  const ms = Number(run.stdout.trim().split('\n').at(-1));
  if (run.status !== 0 || Number.isNaN(ms)) throw new Error(`${dir}: the import failed\n${run.stderr.slice(-2000)}`);
  return ms;
}

export interface InitRatio { handler: string; bytes: number; totalBytes: number; initMs: number; floorMs: number; ratio: number; target: number }

/** Every function's init beside the floor's, `rounds` fresh processes each (alternated), medians. */
export function initRatios(rounds: number, handlers: readonly string[] = manifestHandlers()): { floor: { bytes: number; initMs: number }; functions: InitRatio[] } {
  const scratch = mkdtempSync(join(tmpdir(), 'bench-bundles-'));
  try {
    const floorDir = join(scratch, 'floor');
    buildSync({ ...BUNDLE_OPTIONS, stdin: { contents: FLOOR, resolveDir: REPO_ROOT, loader: 'js', sourcefile: 'floor.mjs' }, outfile: join(floorDir, BUNDLE_FILE) });
    const bundles = handlers.map((handler, i) => {
      const dir = join(scratch, String(i));
      const { metafile } = bundleFunction(handler, dir, bundleOptionsOf(handler));
      return { dir, chunks: tableChunks(metafile) };
    });
    const dirs = bundles.map((b) => b.dir);
    const own = handlers.map(() => [] as number[]);
    const paired = handlers.map(() => [] as number[]);
    for (let round = 0; round < rounds; round++) {
      dirs.forEach((dir, i) => {
        const floorFirst = (round + i) % 2 === 0;
        if (floorFirst) paired[i]?.push(importMs(floorDir));
        own[i]?.push(importMs(dir, bundles[i]?.chunks));
        if (!floorFirst) paired[i]?.push(importMs(floorDir));
      });
    }
    const functions = handlers.map((handler, i) => {
      const initMs = median(own[i] ?? []);
      const floorMs = median(paired[i] ?? []);
      const dir = dirs[i] ?? '';
      const totalBytes = codeBytes(dir);
      return { handler, bytes: statSync(join(dir, BUNDLE_FILE)).size, totalBytes, initMs, floorMs, ratio: initMs / floorMs, target: targetOf(handler) };
    });
    return { floor: { bytes: statSync(join(floorDir, BUNDLE_FILE)).size, initMs: median(paired.flat()) }, functions };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The figure's rows: the floor, a summary, then every function, the highest ratio to its target first. */
export async function bundleFigure(size: RunSize): Promise<Row[]> {
  const rounds = Math.max(3, size.coldStarts);
  const { floor, functions } = await Promise.resolve(initRatios(rounds));
  const missed = functions.filter((f) => f.ratio > f.target);
  const n = `median of ${String(rounds)} fresh processes each, alternated with the floor`;
  const rows: Row[] = [{
    figure: '4 Bundles',
    what: `Cold init (index.mjs and the table client's chunks) of ${String(functions.length)} functions as a ratio to the floor (${n})`,
    ours: `${String(functions.length - missed.length)} met, ${String(missed.length)} missed`,
    other: `floor (DynamoDB document client only) ${fmt.kb(floor.bytes)}, init ${fmt.ms(floor.initMs)}`,
    note: 'target: every function <= 1.3x, the PDF intake routes and the seal chain <= 2.0x',
  }];
  const sorted = [...functions].sort((a, b) => b.ratio / b.target - a.ratio / a.target);
  for (const f of sorted) {
    rows.push({
      figure: '4 Bundles', what: f.handler, ours: `${fmt.kb(f.bytes)}${f.totalBytes > f.bytes ? ` (${fmt.kb(f.totalBytes)} with chunks and shipped modules)` : ''}, init ${fmt.ms(f.initMs)}`, other: `floor ${fmt.ms(f.floorMs)}`,
      ratio: `${f.ratio.toFixed(2)}x (target ${f.target.toFixed(1)}x)`, note: `${f.ratio <= f.target ? 'met' : 'MISSED'}; ${String(memoryOf(f.handler))} MB`,
    });
  }
  return rows;
}
