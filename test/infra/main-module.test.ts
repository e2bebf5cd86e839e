/** The command-line scripts (npm run demo, seal-cert, build:docs, client:generate, build:web) run when started through a symlinked checkout. */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const TSX = join(ROOT, 'node_modules/.bin/tsx');

describe('isMainModule', () => {
  let dir: string | undefined;
  afterEach(() => { if (dir) rmSync(dir, { recursive: true, force: true }); });

  it('runs a script started by a path through a symbolic link (node runs it from its real path)', () => {
    dir = mkdtempSync(join(tmpdir(), 'esign-main-module-'));
    const linked = join(dir, 'checkout');
    symlinkSync(ROOT, linked);
    const out = join(dir, 'seal.csr');
    const printed = execFileSync(TSX, [join(linked, 'infra/seal-cert.ts'), 'csr', '--out', out], {
      cwd: dir, encoding: 'utf8', env: { ...process.env, DATA_DIR: join(dir, 'data'), SEAL_KEY_ID: '' },
    });
    expect(printed).toContain(`Wrote ${out}`);
    expect(existsSync(out) && readFileSync(out, 'utf8')).toMatch(/^-----BEGIN CERTIFICATE REQUEST-----/);
  }, 60_000);
});
