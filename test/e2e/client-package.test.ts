/**
 * The client package as an integrator installs it: packed with `npm pack`, installed from the tarball into a project
 * of its own, compiled with tsc (strict, its declarations checked too) and run with plain node against the local API.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject, describe, expect, it } from 'vitest';
import { newApp } from '#test/support/api.ts';
import { compile, CONSUMER_TSCONFIG, packedClient, projectWithClient } from '#test/support/client-package.ts';

const SAMPLE = new URL('../fixtures/sample.pdf', import.meta.url);

/** Uses every helper once, the way the package's documentation shows, and prints what it saw as JSON. */
const PROGRAM = `
import { readFileSync, createReadStream } from 'node:fs';
import { createHmac } from 'node:crypto';
import { clientCredentials, createEsignClient, paginate, uploadDocument, uploadLargeDocument, verifyWebhook, type Schemas } from '@esign/client';

const baseUrl = process.env.API_URL ?? '';
const api = createEsignClient({ baseUrl });
api.use(clientCredentials({ baseUrl, clientId: process.env.CLIENT_ID ?? '', clientSecret: process.env.CLIENT_SECRET ?? '' }));
const pdfPath = process.env.PDF_PATH ?? '';
const pdf: Buffer = readFileSync(pdfPath);

async function draft(subject: string): Promise<Schemas['Envelope']> {
  const { data, error } = await api.POST('/v1/envelopes', { body: { tenantId: 'packed', subject, signers: [{ name: 'Ana', email: 'ana-packed@example.com' }] } });
  if (!data) throw new Error(error.message);
  return data;
}

const first = await draft('From a Buffer');
const fromBuffer = await uploadDocument(api, first.id, pdf, { filename: 'buffer.pdf' });
const fromBlob = await uploadDocument(api, first.id, new Blob([new Uint8Array(pdf)]), { filename: 'blob.pdf' });
const fromStream = await uploadDocument(api, first.id, createReadStream(pdfPath), { filename: 'stream.pdf' });
const raw = await api.POST('/v1/envelopes/{id}/document', { params: { path: { id: first.id } }, body: new Uint8Array(pdf), headers: { 'content-type': 'application/pdf' } });
const second = await draft('Presigned');
const presigned = await uploadLargeDocument(api, second.id, new Response(new Uint8Array(pdf)).body ?? pdf, { filename: 'large.pdf' });
await draft('Third');

const subjects: (string | null)[] = [];
for await (const envelope of paginate(api, '/v1/envelopes', { query: { tenantId: 'packed', pageSize: 2 } })) subjects.push(envelope.subject);

const t = Math.floor(Date.now() / 1000);
const body = '{"event":"envelope.sent"}';
const v1 = createHmac('sha256', 'whsec-packed-0123456789').update(t + '.' + body).digest('hex');
const headers = { 'x-service-timestamp': String(t), 'x-service-signature-v2': 't=' + t + ',v1=' + v1 };
console.log(JSON.stringify({
  hashes: [fromBuffer.sha256, fromBlob.sha256, fromStream.sha256, raw.data?.sha256, presigned.sha256],
  names: [fromBuffer.name, fromBlob.name, fromStream.name, presigned.name],
  subjects,
  verified: verifyWebhook(body, headers, 'whsec-packed-0123456789', { toleranceSeconds: 300 }),
  forged: verifyWebhook(body + ' ', headers, 'whsec-packed-0123456789'),
}));
`;

/** A call the types must refuse: if the package's declarations did not resolve, everything would be \`any\` and pass. */
const WRONG = `
import { createEsignClient } from '@esign/client';
const api = createEsignClient({ baseUrl: 'http://127.0.0.1:1' });
await api.POST('/v1/envelopes', { body: { tenantId: 42, signers: [] } });
await api.GET('/v1/no-such-route', {});
`;

describe('the client package', () => {
  it('packs only the built files, with declarations, and no TypeScript sources', async () => {
    const [tarball] = (await packedClient()).filter((file) => file.includes('esign-client-'));
    const listing = execFileSync('tar', ['-tzf', tarball ?? ''], { encoding: 'utf8' }).split('\n').filter(Boolean).sort();
    expect(listing).toContain('package/dist/index.js');
    expect(listing).toContain('package/dist/index.d.ts');
    expect(listing).toContain('package/dist/schema.d.ts');
    expect(listing.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))).toEqual([]);
    const manifest = JSON.parse(execFileSync('tar', ['-xzOf', tarball ?? '', 'package/package.json'], { encoding: 'utf8' })) as { exports: Record<string, unknown>; dependencies: Record<string, string> };
    expect(manifest.exports['.']).toEqual({ types: './dist/index.d.ts', import: './dist/index.js' });
    expect(Object.keys(manifest.dependencies)).toEqual(['openapi-fetch']);
  }, 300_000);

  it('installs from the tarball offline, compiles strictly with tsc, and runs with node against the API', async () => {
    const app = await newApp('packed client');
    const dir = await projectWithClient('client-consumer', {
      'package.json': JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
      'tsconfig.json': CONSUMER_TSCONFIG,
      'src/main.ts': PROGRAM,
    });
    const built = compile(dir);
    expect(built.output).toBe('');
    expect(built.ok).toBe(true);
    const out = execFileSync(process.execPath, [join(dir, 'dist/main.js')], {
      encoding: 'utf8', env: { ...process.env, API_URL: inject('apiUrl'), CLIENT_ID: app.clientId, CLIENT_SECRET: app.clientSecret, PDF_PATH: SAMPLE.pathname },
    });
    const result = JSON.parse(out) as { hashes: string[]; names: string[]; subjects: string[]; verified: boolean; forged: boolean };
    const sha = (await import('node:crypto')).createHash('sha256').update(readFileSync(SAMPLE)).digest('hex');
    expect(result.hashes).toEqual([sha, sha, sha, sha, sha]);
    expect(result.names).toEqual(['buffer.pdf', 'blob.pdf', 'stream.pdf', 'large.pdf']);
    expect([...result.subjects].sort()).toEqual(['From a Buffer', 'Presigned', 'Third']);
    expect(result.verified).toBe(true);
    expect(result.forged).toBe(false);
  }, 300_000); // packing, an install and a compile: slow on a busy machine, and not what is measured

  it('refuses a wrong body and an unknown route at compile time (the declarations resolve, nothing is any)', async () => {
    const dir = await projectWithClient('client-wrong', {
      'package.json': JSON.stringify({ name: 'wrong', private: true, type: 'module' }),
      'tsconfig.json': CONSUMER_TSCONFIG,
      'src/main.ts': WRONG,
    });
    const built = compile(dir);
    expect(built.ok).toBe(false);
    expect(built.output).toMatch(/main\.ts\(4,.*TS2322/);
    expect(built.output).toMatch(/main\.ts\(5,/);
  }, 300_000);
});
