import { readFileSync } from 'node:fs';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createApplication, issueToken } from '#shared/console/application-actions.ts';
import type { ApiHandler } from '#shared/http/pipeline.ts';
import { definitionOf, routes } from '#infra/routes.ts';
import type { Deps } from '#shared/deps.ts';
import { memoryDeps } from '#test/support/memory-deps.ts';

const context = {} as Context;
let deps: Awaited<ReturnType<typeof memoryDeps>>;
const vars: Record<string, string> = {};

async function handlerFor(routeKey: string, withDeps: Deps = deps): Promise<ApiHandler> {
  const route = routes.find((r) => `${r.method} ${r.path}` === routeKey);
  if (!route) throw new Error(`no route ${routeKey}`);
  return Promise.resolve(definitionOf(route.handler).createHandler(withDeps) as ApiHandler);
}

/** A sample from events/api with its {{placeholders}} filled in. */
function sample(name: string): APIGatewayProxyEventV2 {
  const text = readFileSync(`events/api/${name}.json`, 'utf8').replace(/\{\{(\w+)\}\}/g, (_m, key: string) => vars[key] ?? `{{${key}}}`);
  return JSON.parse(text) as APIGatewayProxyEventV2;
}

async function invoke(name: string): Promise<{ statusCode: number; headers: Record<string, string>; json: Record<string, unknown> }> {
  const event = sample(name);
  const result = await (await handlerFor(event.routeKey))(event, context);
  const json = result.headers['content-type']?.includes('json') ? (JSON.parse(result.body ?? '{}') as Record<string, unknown>) : {};
  return { statusCode: result.statusCode, headers: result.headers, json };
}

beforeAll(async () => {
  deps = await memoryDeps();
  const app = await createApplication(deps, { name: 'events' });
  Object.assign(vars, { clientId: app.clientId, clientSecret: app.clientSecret, accessToken: (await issueToken(deps, app.clientId, app.clientSecret)).access_token });
});

describe('every sample event in events/api runs through its function', () => {
  it('walks token, create (both variants), read, list, build, send, download, verify and void', async () => {
    expect((await invoke('oauth-token')).statusCode).toBe(200);
    const created = await invoke('create-envelope-multipart');
    expect(created.statusCode).toBe(201);
    const envelope = created.json as { id: string; signers: { id: string }[]; documents: { id: string }[] };
    Object.assign(vars, { envelopeId: envelope.id, signerId: envelope.signers[0]?.id ?? '', documentId: envelope.documents[0]?.id ?? '' });
    expect((await invoke('create-envelope-json')).statusCode).toBe(201);
    expect((await invoke('get-envelope')).statusCode).toBe(200);
    expect((await invoke('list-envelopes')).json).toMatchObject({ total: 2 });
    const signer = await invoke('add-signer');
    expect(signer.statusCode).toBe(201);
    vars.signerId = String(signer.json.id); // the new signer needs a field of their own before sending
    expect((await invoke('add-field')).statusCode).toBe(201);
    const download = await invoke('get-document');
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect((await invoke('verify-audit')).json).toMatchObject({ valid: true });
    expect((await invoke('openapi')).json).toMatchObject({ openapi: '3.1.0' });
    const sent = await invoke('send-envelope');
    expect(sent.statusCode, JSON.stringify(sent.json)).toBe(200);
    expect(sent.json.signers).toMatchObject([{ signingUrl: expect.stringMatching(/^https:\/\/sign\.example\.com\/sign\//) as unknown }, { signingUrl: expect.any(String) as unknown }]);
    expect(deps.sent.emails.map((m) => m.to).sort()).toEqual(['ana@example.com', 'cy@example.com']);
    expect((await invoke('void-envelope')).json).toMatchObject({ status: 'voided' });
  });

  it('uploads a raw, base64-encoded PDF to a JSON-created draft', async () => {
    const created = await invoke('create-envelope-json');
    vars.envelopeId = String(created.json.id);
    const upload = await invoke('upload-document');
    expect(upload.statusCode).toBe(201);
    expect(upload.json).toMatchObject({ pageCount: 2 });
  });
});

describe('the pipeline', () => {
  it('maps an unexpected failure to a 500 with no internals, and logs it with the request id', async () => {
    const written: string[] = [];
    const capture = (chunk: unknown) => { written.push(String(chunk)); return true; };
    const streams = [vi.spyOn(process.stdout, 'write').mockImplementation(capture), vi.spyOn(process.stderr, 'write').mockImplementation(capture)];
    const failing = () => Promise.reject(new Error('socket hang up at 10.0.3.7:8000'));
    const broken = { ...deps, envelopes: Object.assign(Object.create(deps.envelopes) as typeof deps.envelopes, { get: failing, getWithAudit: failing }) };
    vars.envelopeId = '0190f5d2-0000-7000-8000-000000000001';
    const result = await (await handlerFor('GET /v1/envelopes/{id}', broken))(sample('get-envelope'), context);
    expect(result.statusCode).toBe(500);
    expect(result.body).not.toMatch(/socket|10\.0\.3\.7|at .*\.ts/);
    expect(JSON.parse(result.body ?? '{}')).toMatchObject({ error: 'internal_error', status: 500, requestId: 'Jk0Wq-sample' });
    expect(result.headers['x-request-id']).toBe('Jk0Wq-sample');
    for (const stream of streams) stream.mockRestore();
    const logged = written.map((line) => JSON.parse(line) as Record<string, unknown>).find((line) => line.level === 'ERROR');
    expect(logged).toMatchObject({ requestId: 'Jk0Wq-sample' });
    expect(JSON.stringify(logged)).toContain('socket hang up'); // the log keeps what the answer hides
  });

  it('answers malformed JSON with 400 validation_error and decodes base64 JSON bodies', async () => {
    const event = sample('create-envelope-json');
    const handler = await handlerFor(event.routeKey);
    const malformed = await handler({ ...event, body: '{"tenantId": "acme",' }, context);
    expect(malformed.statusCode).toBe(400);
    expect(JSON.parse(malformed.body ?? '{}')).toMatchObject({ error: 'validation_error', type: 'validation_error' });
    const encoded = await handler({ ...event, body: Buffer.from(event.body ?? '').toString('base64'), isBase64Encoded: true }, context);
    expect(encoded.statusCode).toBe(201);
  });
});
