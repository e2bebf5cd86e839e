/**
 * Builds the client package (`npm run build` or `npm pack` in client/): JavaScript and declarations in dist/ with
 * tsc, the generated schema types beside them, and every relative import ending in `.js` so that a project with any
 * module resolution (and no TypeScript loader) reads it.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';

const here = import.meta.dirname;
export const DIST = resolve(here, 'dist');

/** `'./x.ts'` and `'./schema.d.ts'` in emitted files -> `'./x.js'`, `'./schema.js'` (which resolves to schema.d.ts). */
export function rewriteSpecifiers(text: string): string {
  return text.replace(/(from\s+|import\()(['"])(\.{1,2}\/[^'"]+?)(?:\.d)?\.ts\2/g, '$1$2$3.js$2');
}

export function buildClientPackage(): void {
  rmSync(DIST, { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', join(here, 'tsconfig.client.json')], { stdio: 'inherit' });
  copyFileSync(join(here, 'schema.d.ts'), join(DIST, 'schema.d.ts'));
  for (const name of readdirSync(DIST)) {
    if (!/\.(js|d\.ts)$/.test(name)) continue;
    const file = join(DIST, name);
    writeFileSync(file, rewriteSpecifiers(readFileSync(file, 'utf8')));
  }
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) buildClientPackage();
