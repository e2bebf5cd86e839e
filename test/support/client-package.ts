/**
 * The client as an integrator gets it: `npm pack` of client/, installed from the tarball into a project of its own
 * (offline: its one dependency, openapi-fetch, is packed from this repository's node_modules too), compiled with tsc
 * and run with plain node.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
const MODULES = join(ROOT, 'node_modules');
const TSC = join(MODULES, 'typescript/bin/tsc');
let packed: Promise<string[]> | undefined;

const npm = (args: string[], cwd: string) => execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, npm_config_update_notifier: 'false' } });

/** The client's tarball (built by its prepack script) and the tarballs of its dependencies; packed once per run. */
export function packedClient(): Promise<string[]> {
  packed ??= Promise.resolve().then(() => {
    const into = mkdtempSync(join(tmpdir(), 'esign-client-pack-'));
    npm(['pack', '--pack-destination', into, '--cache', join(into, '.npm')], join(ROOT, 'client'));
    // Packed as they are installed here (no build scripts): the same code the tests of this repository run.
    npm(['pack', '--ignore-scripts', '--pack-destination', into, '--cache', join(into, '.npm'), join(MODULES, 'openapi-fetch'), join(MODULES, 'openapi-typescript-helpers')], into);
    return readdirSync(into).filter((name) => name.endsWith('.tgz')).map((name) => join(into, name));
  });
  return packed;
}

/** A fresh project directory with `files` written into it and the packed client installed from its tarball, offline. */
export async function projectWithClient(name: string, files: Record<string, string>): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), `esign-${name}-`));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(resolve(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  npm(['install', '--offline', '--no-audit', '--no-fund', '--cache', join(dir, '.npm-cache'), ...await packedClient()], dir);
  return dir;
}

/** The strict compiler settings an integrator's Node project might use, with this repository's Node types. */
export const CONSUMER_TSCONFIG = JSON.stringify({
  compilerOptions: {
    target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, outDir: 'dist', rootDir: 'src',
    noUncheckedIndexedAccess: true, skipLibCheck: false, types: ['node'], typeRoots: [join(MODULES, '@types')],
  },
  include: ['src'],
}, null, 2);

/** `tsc -p <project>` with this repository's compiler: its output, and whether it compiled. */
export function compile(dir: string, project = 'tsconfig.json'): { ok: boolean; output: string } {
  const run = spawnSync(process.execPath, [TSC, '-p', join(dir, project)], { cwd: dir, encoding: 'utf8' });
  return { ok: run.status === 0, output: `${run.stdout}${run.stderr}` };
}
