/**
 * The example integration (examples/esign-webhooks) built as its README-less instructions say: the packed client
 * installed from its tarball, compiled with tsc, run with node. It sends an envelope; the test signs it and checks
 * that the example received and verified the envelope's webhooks, and refused a forged one.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { newApp } from '#test/support/api.ts';
import { compile, projectWithClient } from '#test/support/client-package.ts';
import { passGates, settle, signing, tokenOf, valuesFor, type ContextBody } from '#test/support/signing.ts';

const EXAMPLE = new URL('../../examples/esign-webhooks/', import.meta.url);
const SAMPLE = new URL('../fixtures/sample.pdf', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, EXAMPLE), 'utf8');
let child: ChildProcessWithoutNullStreams | undefined;
let dir = '';

// Packing, installing and compiling take a while on a busy machine: none of it is timed.
beforeAll(async () => { dir = await buildExample(); }, 300_000);

afterAll(async () => {
  if (child?.exitCode !== null) return;
  const exited = new Promise((resolve) => child?.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
});

/** The example's project with the packed client installed, its own tsconfig pointed at this repository's Node types. */
async function buildExample(): Promise<string> {
  const manifest = JSON.parse(read('package.json')) as Record<string, unknown>;
  delete manifest.devDependencies; // typescript and @types/node come from this repository: the install is offline
  delete manifest.dependencies; // the client is installed from the tarball packed by this run
  const tsconfig = JSON.parse(read('tsconfig.example.json')) as { compilerOptions: Record<string, unknown> };
  tsconfig.compilerOptions.typeRoots = [join(import.meta.dirname, '../../node_modules/@types')];
  const dir = await projectWithClient('example', {
    'package.json': JSON.stringify(manifest), 'tsconfig.example.json': JSON.stringify(tsconfig), 'src/esign-example.ts': read('src/esign-example.ts'),
  });
  const built = compile(dir, 'tsconfig.example.json');
  expect(built.output).toBe('');
  return dir;
}

describe('the example integration', () => {
  it('sends an envelope, and receives and verifies every webhook of its life; refuses a forged delivery', async () => {
    const app = await newApp('example integration');
    const email = 'signer-example@example.com';
    child = spawn(process.execPath, [join(dir, 'dist/esign-example.js')], {
      env: { ...process.env, API_URL: inject('apiUrl'), CLIENT_ID: app.clientId, CLIENT_SECRET: app.clientSecret, PDF_PATH: SAMPLE.pathname, SIGNER_EMAIL: email, PORT: '0' },
    });
    const lines: Record<string, unknown>[] = [];
    createInterface({ input: child.stdout }).on('line', (line) => lines.push(JSON.parse(line) as Record<string, unknown>));
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    await expect.poll(() => lines.find((l) => l.ready === true || 'error' in l), { timeout: 30_000 }).toBeDefined();
    const ready = lines.find((l) => l.ready === true) as { receiver: string; envelopeId: string; signingUrl: string } | undefined;
    expect(ready, `${JSON.stringify(lines)} ${stderr}`).toBeDefined();
    if (!ready) return;

    const link = tokenOf(ready.signingUrl);
    const context = (await signing<ContextBody>('GET', link)).body;
    await passGates(link, context.requiresOtpVerification ? email : null);
    const signed = await signing('POST', link, '/sign', { fields: valuesFor(context) });
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    await settle(); // the seal workflow and the deliveries

    const events = async () => (await (await fetch(`${ready.receiver}/events`)).json()) as { event: string; envelopeId: string; scheme: string }[];
    await expect.poll(async () => (await events()).map((e) => e.event)).toEqual(['envelope.sent', 'signer.viewed', 'signer.signed', 'envelope.completed']);
    expect((await events()).every((e) => e.envelopeId === ready.envelopeId)).toBe(true);

    const forged = await fetch(`${ready.receiver}/webhooks`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-service-signature': `sha256=${'0'.repeat(64)}` },
      body: JSON.stringify({ id: 'forged', event: 'envelope.completed', envelopeId: ready.envelopeId }),
    });
    expect(forged.status).toBe(401);
    expect((await events()).map((e) => e.event)).not.toContain('forged');
    expect(lines).toContainEqual({ webhook: 'refused', reason: 'signature_mismatch' });
    expect((await (await fetch(`${ready.receiver}/`)).text())).toContain('envelope.completed');
  }, 120_000);
});
