/**
 * What every function evaluates at its cold start (esbuild's metafile: the entry and its static imports). The PDF
 * readers, the seal's fonts, shaper and PKI code, the mail templates with their message catalogues, the multipart
 * parser, the webhook address checks, the image decoders and the RE2 engine are loaded by a dynamic import where a
 * request needs them, so no function pays for them in its init phase.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { BUNDLE_FILE, bundleFunction, evaluatedAtInit } from '#infra/constructs/bundling.ts';
import { bundleOptionsOf } from '#infra/stacks/functions.ts';

const scratch = mkdtempSync(join(tmpdir(), 'esign-init-'));
afterAll(() => { rmSync(scratch, { recursive: true, force: true }); });

/** Inputs only some requests need, by a part of their path. */
const FIRST_USE_ONLY = [
  'node_modules/pdf-lib/', 'node_modules/pdfjs-dist/', 'node_modules/fontkit/', 'node_modules/brotli/', 'node_modules/harfbuzzjs/',
  'node_modules/pkijs/', 'node_modules/intl-messageformat/', 'shared/i18n/messages.ts', 'shared/notices/email-', 'shared/notices/localized-notices.ts',
  // The multipart parser, the webhook target's address checks, the signature and attachment image decoders, RE2 patterns.
  'node_modules/busboy/', 'node_modules/ipaddr.js/', 'node_modules/pngjs/', 'node_modules/jpeg-js/', 'node_modules/re2js/',
];
/** A function of each kind that once evaluated some of them: intake, templates, signing, console, the jobs, the seal chain, sweeps. */
const HANDLERS = [
  'functions/api/create-envelope.ts', 'functions/api/get-template.ts', 'functions/api/sign.ts', 'functions/api/otp-request.ts', 'functions/api/list-users.ts',
  'functions/api/download-status.ts', 'functions/api/complete-attachment-upload.ts', 'functions/workers/jobs.ts', 'functions/workers/outbox-sweep.ts',
  'functions/workers/deletion-reminders.ts', 'functions/workers/archive-sweep.ts', 'functions/workers/seal.ts', 'functions/workers/finalize.ts',
  'functions/api/signing-context.ts', 'functions/api/create-webhook.ts', 'functions/api/upload-document.ts',
];
const heavy = (input: string) => FIRST_USE_ONLY.some((part) => input.includes(part));

describe('cold init', () => {
  it('no function evaluates PDF, font, PKI, mail rendering, multipart, address or image code, nor a message catalogue, when it is imported', () => {
    const found: Record<string, string[]> = {};
    HANDLERS.forEach((handler, i) => {
      const { metafile } = bundleFunction(handler, join(scratch, String(i)), bundleOptionsOf(handler));
      const atInit = [...evaluatedAtInit(metafile, handler)].filter(heavy);
      const shipped = Object.keys(metafile.inputs).filter(heavy);
      if (atInit.length > 0) found[handler] = [...new Set(atInit.map((input) => FIRST_USE_ONLY.find((part) => input.includes(part))))].filter((p) => p !== undefined);
      // The code is still in the bundles that need it, only later: a seal task carries the seal.
      if (handler === 'functions/workers/seal.ts') {
        expect(shipped.some((input) => input.includes('node_modules/fontkit/'))).toBe(true);
        // fontkit's brotli decoder reads WOFF2 only; the seal's fonts are TrueType, so its stand-in ships instead.
        expect(shipped.filter((input) => input.includes('node_modules/brotli/'))).toEqual([]);
        expect(Object.keys(metafile.inputs)).toContain('shared/sealing/text/woff2-refused.ts');
      }
    });
    expect(found).toEqual({});
  }, 600_000);

  it('no function makes a locale-aware call when it is imported (the first one initialises ICU, about 10 ms)', () => {
    // Records every locale-aware formatting call, then imports the bundle.
    const script = [
      'const calls = [];',
      'for (const [owner, names] of [[Number.prototype, ["toLocaleString"]], [Date.prototype, ["toLocaleString", "toLocaleDateString", "toLocaleTimeString"]], [String.prototype, ["localeCompare", "toLocaleUpperCase", "toLocaleLowerCase"]]]) {',
      '  for (const name of names) { const original = owner[name]; owner[name] = function (...args) { calls.push(name); return original.apply(this, args); }; }',
      '}',
      'for (const name of ["NumberFormat", "DateTimeFormat", "Collator", "PluralRules", "RelativeTimeFormat", "ListFormat", "Segmenter", "DisplayNames"]) {',
      '  const Original = Intl[name]; Intl[name] = new Proxy(Original, { construct(target, args) { calls.push(`Intl.${name}`); return Reflect.construct(target, args); }, apply(target, self, args) { calls.push(`Intl.${name}`); return Reflect.apply(target, self, args); } });',
      '}',
      'await import(process.argv[1]);',
      'console.log(JSON.stringify(calls));',
    ].join('\n');
    const found: Record<string, string[]> = {};
    ['functions/api/get-document.ts', 'functions/api/otp-verify.ts', 'functions/api/create-envelope.ts', 'functions/api/sign.ts'].forEach((handler, i) => {
      const outdir = join(scratch, `locale-${String(i)}`);
      bundleFunction(handler, outdir, bundleOptionsOf(handler));
      const run = spawnSync(process.execPath, ['--input-type=module', '-e', script, pathToFileURL(join(outdir, BUNDLE_FILE)).href], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', AWS_REGION: 'us-east-1' } });
      expect(run.status, run.stderr).toBe(0);
      const calls = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '[]') as string[];
      if (calls.length > 0) found[handler] = calls;
    });
    expect(found).toEqual({});
  }, 120_000);
});
