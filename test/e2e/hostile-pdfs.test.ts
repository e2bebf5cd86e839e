/**
 * The hostile-PDF corpus (test/fixtures/hostile/generate.ts) over HTTP on the local stack: every file is refused
 * with its status and reason in the error shape, the bomb on all five routes that take a PDF; an application that
 * allows active content gets its JavaScript PDF accepted.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectErrorShape, newApp, type ApiResponse } from '#test/support/api.ts';
import { createMultipart, sigField, signer } from '#test/support/envelopes.ts';
import { HOSTILE, type HostileCase } from '#test/fixtures/hostile/generate.ts';

let token: string;
beforeAll(async () => { token = (await newApp('hostile pdfs')).token; });

const envelopeData = { tenantId: 'acme', subject: 'Hostile', signers: [signer('ana@example.com', 1)], fields: [sigField(0)] };
const templateData = { tenantId: 'acme', name: 'Hostile', roles: [{ role: 'a', routingOrder: 1, authMethod: 'none' }], fields: [] };
const pdf = (bytes: Uint8Array) => ({ bytes, contentType: 'application/pdf' });

async function draftId(bearer = token): Promise<string> {
  const draft = await call<{ id: string }>('POST', '/v1/envelopes', { token: bearer, json: { tenantId: 'acme', subject: 'Hostile', signers: [signer('ana@example.com', 1)], fields: [] } });
  expect(draft.status).toBe(201);
  return draft.body.id;
}

async function templateId(): Promise<string> {
  const created = await call<{ id: string }>('POST', '/v1/templates', { token, json: templateData });
  expect(created.status).toBe(201);
  return created.body.id;
}

interface UploadUrl { uploadId: string; url: string; fields: Record<string, string> }

/** The five routes that take a PDF, each sending `bytes` its own way. */
const ROUTES: Record<string, (bytes: Uint8Array) => Promise<ApiResponse>> = {
  'create envelope (multipart)': (bytes) => createMultipart(token, envelopeData, bytes),
  'upload document': async (bytes) => call('POST', `/v1/envelopes/${await draftId()}/document`, { token, raw: pdf(bytes) }),
  'complete a presigned upload': async (bytes) => {
    const id = await draftId();
    const upload = (await call<UploadUrl>('POST', `/v1/envelopes/${id}/document/upload-url`, { token, json: {} })).body;
    const form = new FormData();
    for (const [name, value] of Object.entries(upload.fields)) form.append(name, value);
    form.append('file', new Blob([bytes], { type: 'application/pdf' }), 'upload.pdf');
    expect((await fetch(upload.url, { method: 'POST', body: form })).ok).toBe(true);
    return call('POST', `/v1/envelopes/${id}/document/upload-url/${upload.uploadId}/complete`, { token });
  },
  'create template (multipart)': (bytes) => {
    const form = new FormData();
    form.append('data', JSON.stringify(templateData));
    form.append('file', new Blob([bytes], { type: 'application/pdf' }), 'hostile.pdf');
    return call('POST', '/v1/templates', { token, form });
  },
  'upload template document': async (bytes) => call('POST', `/v1/templates/${await templateId()}/document`, { token, raw: pdf(bytes) }),
};
const routeNames = Object.keys(ROUTES);

function send(route: string, bytes: Uint8Array): Promise<ApiResponse> {
  const post = ROUTES[route];
  if (!post) throw new Error(route);
  return post(bytes);
}

function expectRefusal(answer: ApiResponse, item: HostileCase): void {
  expect(answer.status, JSON.stringify(answer.body)).toBe(item.status);
  expectErrorShape(answer.body, 'validation_error', item.status);
  expect((answer.body as { reason: string }).reason).toBe(item.reason);
}

const corpus = (name: string): HostileCase => {
  const item = HOSTILE.find((h) => h.name === name);
  if (!item) throw new Error(name);
  return item;
};

describe('the hostile-PDF corpus over HTTP', () => {
  for (const route of routeNames) {
    it(`refuses the 2 GB bomb on ${route}`, async () => {
      const bomb = corpus('bomb-2gb');
      expectRefusal(await send(route, bomb.bytes()), bomb);
    }, 60_000);
  }

  // Every other file on one route each, taking the routes in turn.
  HOSTILE.filter((h) => h.name !== 'bomb-2gb').forEach((item, i) => {
    const route = routeNames[i % routeNames.length] ?? 'upload document';
    it(`refuses ${item.name} on ${route}: ${String(item.status)} ${item.reason}`, async () => {
      expectRefusal(await send(route, item.bytes()), item);
    }, 60_000);
  });

  it('accepts JavaScript and launch actions for an application that allows active content', async () => {
    const allowing = (await newApp('active content allowed', { allowActiveContent: true })).token;
    for (const name of ['javascript-open-action', 'launch-action']) {
      const answer = await call('POST', `/v1/envelopes/${await draftId(allowing)}/document`, { token: allowing, raw: pdf(corpus(name).bytes()) });
      expect(answer.status, name).toBe(201);
    }
  }, 60_000);
});
