/**
 * Every shell snippet of README.md and docs/*.md runs against the local stack, in the order a reader meets them,
 * after `npm run demo` has run (so a snippet cannot lean on an empty outbox). Each block runs in bash with
 * `set -euo pipefail`, from a scratch copy of the repository root (so files the snippets write land there), with
 * the environment README promises pointed at this stack; the variables a block sets carry into the next, as in one
 * terminal. A block that cannot run here must be fenced `text` (or `console` for output), never left as a shell block.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runDemo } from '#infra/demo.ts';
import { projectDocBlocks, SHELL_LANGUAGES, SHOWN_LANGUAGES, type DocBlock } from '#test/support/doc-blocks.ts';

const ROOT = resolve(import.meta.dirname, '../..');
/** The longest a single block may take: the slowest waits for a seal in the background or runs an npm script. */
const BLOCK_TIMEOUT_MS = 150_000;
/** What a failure shows of the block's output. */
const OUTPUT_TAIL = 6_000;

const blocks = projectDocBlocks(ROOT);
const shellBlocks = blocks.filter((block) => SHELL_LANGUAGES.has(block.language));
const where = (block: DocBlock) => `${block.file}:${String(block.line)}`;

interface Run { code: number | null; output: string; timedOut: boolean }

/** One bash process in its own process group, so a timeout ends whatever the block started too. */
function runBash(script: string, cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<Run> {
  return new Promise((done, fail) => {
    const child = spawn('bash', [script], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let timedOut = false;
    child.stdout.on('data', (chunk: Buffer) => { output += chunk.toString('utf8'); });
    child.stderr.on('data', (chunk: Buffer) => { output += chunk.toString('utf8'); });
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    }, timeoutMs);
    child.on('error', fail);
    child.on('close', (code) => { clearTimeout(timer); done({ code, output, timedOut }); });
  });
}

/**
 * The block, between loading what earlier blocks defined and saving what it defines (upper-case variables that a bare
 * bash with the same environment does not have, and shell functions), each block starting in the scratch root.
 */
function scriptFor(block: DocBlock, state: string, baseline: string, cwd: string): string {
  return [
    'set -euo pipefail',
    `source ${JSON.stringify(state)}`,
    `cd ${JSON.stringify(cwd)}`,
    block.code,
    '',
    `__names=$(compgen -v | grep -E '^[A-Z][A-Z0-9_]*$' | grep -vxF -f ${JSON.stringify(baseline)} || true)`,
    `{ if [ -n "$__names" ]; then declare -p $__names; fi; declare -f; } > ${JSON.stringify(`${state}.next`)}`,
    `mv ${JSON.stringify(`${state}.next`)} ${JSON.stringify(state)}`,
    '',
  ].join('\n');
}

describe('the shell snippets of README.md and docs/*.md', () => {
  let scratch: string;
  let cwd: string;
  let env: NodeJS.ProcessEnv;
  let state: string;
  let baseline: string;
  let failed: string | undefined;
  const ran: string[] = [];

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'esign-doc-snippets-'));
    // a scratch repository root: every top-level entry linked, so `npm run ...` and test/fixtures work and output stays here
    cwd = join(scratch, 'repo');
    mkdirSync(cwd);
    for (const entry of readdirSync(ROOT)) {
      if (entry === '.git' || entry === '.data' || entry.endsWith('.pdf') || entry.endsWith('.pem')) continue;
      symlinkSync(join(ROOT, entry), join(cwd, entry));
    }
    // the data directory `npm start` would have written: tools such as app:create find the running service through it
    const dataDir = join(scratch, 'data');
    mkdirSync(dataDir);
    writeFileSync(join(dataDir, 'local.json'), JSON.stringify({ apiUrl: inject('apiUrl') }));
    env = {
      PATH: process.env.PATH, HOME: process.env.HOME, LANG: process.env.LANG ?? 'C.UTF-8', TMPDIR: tmpdir(),
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', NO_UPDATE_NOTIFIER: '1', npm_config_update_notifier: 'false',
      // what README says the snippets assume, pointed at this stack instead of the defaults of `npm start`
      API: inject('apiUrl'), API_URL: inject('apiUrl'), SIGNING_URL: inject('signingUrl'),
      LOCAL_CLIENT_ID: inject('devClientId'), LOCAL_CLIENT_SECRET: inject('devClientSecret'), DATA_DIR: dataDir,
    };
    state = join(scratch, 'state.sh');
    writeFileSync(state, '');
    baseline = join(scratch, 'baseline.txt');
    writeFileSync(join(scratch, 'bare.sh'), 'compgen -v\n');
    const names = await runBash(join(scratch, 'bare.sh'), cwd, env, 10_000);
    writeFileSync(baseline, names.output);

    // `npm run demo` first: the snippets must work on a service that has already been used
    await runDemo({
      apiUrl: inject('apiUrl'), clientId: inject('devClientId'), clientSecret: inject('devClientSecret'),
      pdfPath: join(ROOT, 'test/fixtures/sample.pdf'), outPath: join(scratch, 'demo-sealed.pdf'), log: () => undefined,
    });
  }, 180_000);

  afterAll(() => { rmSync(scratch, { recursive: true, force: true }); });

  it('fences every block with a language, each one either run or shown', () => {
    const unknown = blocks.filter((block) => !SHELL_LANGUAGES.has(block.language) && !SHOWN_LANGUAGES.has(block.language));
    expect(unknown.map((block) => `${where(block)} \`\`\`${block.language}`)).toEqual([]);
    expect(shellBlocks.filter((block) => block.file === 'README.md').length).toBeGreaterThan(0);
  });

  for (const block of shellBlocks) {
    it(`runs ${where(block)}`, async () => {
      if (failed) throw new Error(`not run: the earlier block ${failed} failed, and later blocks build on it`);
      const script = join(scratch, `block-${String(ran.length + 1)}.sh`);
      writeFileSync(script, scriptFor(block, state, baseline, cwd));
      const result = await runBash(script, cwd, env, BLOCK_TIMEOUT_MS);
      ran.push(where(block));
      if (result.code !== 0 || result.timedOut) {
        failed = where(block);
        const why = result.timedOut ? `did not finish within ${String(BLOCK_TIMEOUT_MS / 1000)} s` : `exited ${String(result.code)}`;
        throw new Error(`${where(block)} ${why}\n--- block ---\n${block.code}\n--- output (last ${String(OUTPUT_TAIL)} characters) ---\n${result.output.slice(-OUTPUT_TAIL)}`);
      }
    }, BLOCK_TIMEOUT_MS + 10_000);
  }

  it('ran every shell block, none skipped', () => {
    expect(ran).toEqual(shellBlocks.map(where));
  });

  it('left what the README promises: the sealed PDF of `npm run demo` (a script that did nothing would exit 0 too)', () => {
    expect(shellBlocks.some((block) => block.file === 'README.md' && block.code.includes('npm run demo'))).toBe(true);
    expect(existsSync(join(cwd, 'demo-sealed.pdf'))).toBe(true);
  });
});
