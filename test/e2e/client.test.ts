/**
 * The whole flow through the typed client (client/index.ts, types generated from the OpenAPI document): if the
 * document drifts from what the API does, this stops compiling or fails here.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { inject, describe, expect, it } from 'vitest';
import { bearerToken, clientCredentials, createEsignClient, type EsignClient } from '../../client/index.ts';
import { newApp, outboxFor } from '#test/support/api.ts';
import { latestCode, settle, tokenOf } from '#test/support/signing.ts';

const apiUrl = () => inject('apiUrl');
const SAMPLE = new URL('../fixtures/sample.pdf', import.meta.url);

async function signWithCode(api: EsignClient, token: string, email: string, name: string): Promise<void> {
  const path = { token };
  const context = await api.GET('/v1/signing/{token}', { params: { path } });
  expect(context.data?.requiresOtpVerification).toBe(true);
  expect((await api.POST('/v1/signing/{token}/otp/request', { params: { path } })).response.status).toBe(200);
  const verified = await api.POST('/v1/signing/{token}/otp/verify', { params: { path }, body: { code: await latestCode(email) } });
  expect(verified.error).toBeUndefined();
  expect((await api.POST('/v1/signing/{token}/consent', { params: { path } })).data).toBeDefined();
  const fields = (context.data?.fields ?? []).map((field) => ({ fieldId: field.id, textValue: name }));
  const signed = await api.POST('/v1/signing/{token}/sign', { params: { path }, body: { fields, fontLabel: 'Caveat' } });
  expect(signed.data).toMatchObject({ signed: true });
}

describe('typed client: token, create, send, sign, complete, download sealed', () => {
  it('drives the API end to end with every call typed from the document', async () => {
    const app = await newApp('typed client');
    const api = createEsignClient({ baseUrl: apiUrl() });
    api.use(clientCredentials({ baseUrl: apiUrl(), clientId: app.clientId, clientSecret: app.clientSecret }));

    // JSON create, then the PDF as raw bytes, then a second signer and the fields by signer id.
    const created = await api.POST('/v1/envelopes', { body: { tenantId: 'client', subject: 'Typed client', signers: [{ name: 'Ana Silva', email: 'ana-client@example.com' }] } });
    expect(created.response.status).toBe(201);
    const id = created.data?.id ?? '';
    const pdf = await readFile(SAMPLE);
    const uploaded = await api.POST('/v1/envelopes/{id}/document', {
      params: { path: { id } }, body: pdf as never, bodySerializer: (body) => body as unknown as Uint8Array, headers: { 'content-type': 'application/pdf' },
    });
    expect(uploaded.data?.sha256).toBe(createHash('sha256').update(pdf).digest('hex'));
    const ben = await api.POST('/v1/envelopes/{id}/signers', { params: { path: { id } }, body: { name: 'Ben Okafor', email: 'ben-client@example.com', routingOrder: 2 } });
    expect(ben.data?.status).toBe('pending');
    const envelope = await api.GET('/v1/envelopes/{id}', { params: { path: { id } } });
    for (const [i, signer] of (envelope.data?.signers ?? []).entries()) {
      const field = await api.POST('/v1/envelopes/{id}/fields', { params: { path: { id } }, body: { signerId: signer.id, type: 'signature', page: 1, x: 72 + i * 220, y: 72, w: 180, h: 40 } });
      expect(field.response.status).toBe(201);
    }

    // A typed error body: the sealed PDF before completion.
    const early = await api.GET('/v1/envelopes/{id}/document', { params: { path: { id }, query: { kind: 'sealed' } }, parseAs: 'arrayBuffer' });
    expect(early.response.status).toBe(409);

    const sent = await api.POST('/v1/envelopes/{id}/send', { params: { path: { id } }, body: { message: 'Typed' } });
    const first = sent.data?.signers.find((s) => s.routingOrder === 1);
    await signWithCode(api, tokenOf(first?.signingUrl), 'ana-client@example.com', 'Ana Silva');
    await settle(); // the next routing group is invited by a background job
    const invitation = (await outboxFor('ben-client@example.com')).map((m) => /\/sign\/(\S+)/.exec(m.text)?.[1]).find(Boolean);
    await signWithCode(api, invitation ?? '', 'ben-client@example.com', 'Ben Okafor');

    await settle(); // the seal workflow
    const completed = await api.GET('/v1/envelopes/{id}', { params: { path: { id } } });
    expect(completed.data?.status).toBe('completed');
    const sealed = await api.GET('/v1/envelopes/{id}/document', { params: { path: { id }, query: { kind: 'sealed' } }, parseAs: 'arrayBuffer' });
    expect(sealed.response.headers.get('content-type')).toContain('application/pdf');
    const bytes = Buffer.from(sealed.data ?? new ArrayBuffer(0));
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(completed.data?.documentHashFinal);
    expect(bytes.subarray(0, pdf.length).equals(pdf)).toBe(true); // the original stays an exact prefix

    const audit = await api.GET('/v1/envelopes/{id}/audit/verify', { params: { path: { id } } });
    expect(audit.data?.valid).toBe(true);
  });

  it('answers with typed errors, and a fixed token works as well as client credentials', async () => {
    const app = await newApp('typed client errors');
    const api = createEsignClient({ baseUrl: apiUrl() });
    api.use(bearerToken(app.token));
    const missing = await api.GET('/v1/envelopes/{id}', { params: { path: { id: '01940000-0000-7000-8000-000000000000' } } });
    expect(missing.response.status).toBe(404);
    expect(missing.error).toMatchObject({ error: 'not_found', status: 404 });
    const invalid = await api.POST('/v1/envelopes', { body: { tenantId: 'client', signers: [] } });
    expect(invalid.error?.errors).toHaveProperty('signers');
  });
});
