/**
 * The shape of shared/: feature folders whose domain code (transitions and use cases) loads no HTTP, DNS, valibot or
 * AWS, and file names that say which module is meant without the folder.
 */
import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';

const FEATURES = ['kernel', 'envelopes', 'authoring', 'signing', 'notices', 'templates', 'webhooks', 'retention', 'console', 'sealing', 'pki', 'pdf', 'verify', 'background', 'attachments'];
/** Feature files whose job is the edge: request and response schemas, views, and the modules that talk to the network. */
const EDGE = /-(schemas|views)\.ts$|\/(embedded-page|webhook-delivery|webhook-target)\.ts$/;
const FORBIDDEN: [RegExp, string][] = [
  [/^valibot$/, 'valibot (schemas belong in *-schemas.ts)'],
  [/^@aws-sdk\//, 'the AWS SDK (adapters belong in shared/adapters)'],
  [/^aws-lambda$/, 'Lambda event types (HTTP belongs in shared/http)'],
  [/^node:(http|https|http2|dns|net|tls)$/, 'the network'],
  [/(^#shared\/|\/)(http|adapters)\//, 'shared/http or shared/adapters'],
];

const tracked = execSync('git ls-files shared', { encoding: 'utf8' }).split('\n').filter((f) => f.endsWith('.ts'));
const sources = tracked.filter((f) => !f.endsWith('.test.ts') && !f.endsWith('.d.ts'));

/** Every module a file loads at run time (`import type` and `export type` are erased, so they do not count). */
function runtimeImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs: string[] = [];
  for (const match of text.matchAll(/^(import|export)\s+(type\s+)?[^'"]*?from\s+'([^']+)';/gms)) {
    if (!match[2]) specs.push(match[3]!);
  }
  for (const match of text.matchAll(/^import\s+'([^']+)';/gm)) specs.push(match[1]!);
  for (const match of text.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g)) specs.push(match[1]!);
  return specs;
}

describe('shared/', () => {
  it('keeps its domain free of HTTP, DNS, valibot and AWS', () => {
    const domain = sources.filter((f) => FEATURES.includes(f.split('/')[1]!) && !EDGE.test(f));
    expect(domain.length).toBeGreaterThan(50);
    const offences = domain.flatMap((file) =>
      runtimeImports(file).flatMap((spec) => FORBIDDEN.filter(([re]) => re.test(spec)).map(([, what]) => `${file} imports ${spec}: ${what}`)));
    expect(offences).toEqual([]);
  });

  it('has one folder per feature and no loose modules but its wiring', () => {
    const folders = new Set(sources.map((f) => f.split('/').length > 2 ? f.split('/')[1] ?? '' : '(root)'));
    expect([...folders].filter((f) => ![...FEATURES, 'http', 'ports', 'adapters', 'i18n', '(root)'].includes(f))).toEqual([]);
    expect(sources.filter((f) => f.split('/').length === 2).sort()).toEqual(['shared/config.ts', 'shared/deps.ts', 'shared/logging.ts']);
  });

  it('names no two files alike', () => {
    const byName = new Map<string, string[]>();
    for (const file of tracked) byName.set(basename(file), [...(byName.get(basename(file)) ?? []), file]);
    expect([...byName.values()].filter((files) => files.length > 1)).toEqual([]);
  });
});
