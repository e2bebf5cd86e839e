import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectErrorShape, newApp, outboxFor } from '#test/support/api.ts';
import { createMultipart, readyDraft, sigField, signer, type EnvelopeBody } from '#test/support/envelopes.ts';

let token: string;
beforeAll(async () => { token = (await newApp('send')).token; });

const unique = (name: string) => `${name}.${String(Date.now())}.${String(Math.random()).slice(2, 8)}@example.com`;

describe('POST /v1/envelopes/{id}/send', () => {
  it('sends, returning signing URLs for the first routing group only, and emails each invited signer', async () => {
    const [a, b, c] = [unique('ana'), unique('ben'), unique('cy')];
    const draft = await readyDraft(token, 'acme', { signers: [signer(a, 1), signer(b, 1), signer(c, 2)] });
    const res = await call<EnvelopeBody>('POST', `/v1/envelopes/${draft.id}/send`, { token, json: { message: 'Please sign by Friday' } });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('sent');
    const [first, second, third] = res.body.signers;
    expect(first?.signingUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/sign\/[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(second?.signingUrl).toMatch(/\/sign\//);
    expect(first?.signingUrl).not.toBe(second?.signingUrl);
    expect(third).toMatchObject({ status: 'pending', signingUrl: null });
    expect(res.body.signers.map((s) => s.status)).toEqual(['sent', 'sent', 'pending']);

    const mail = await outboxFor(a);
    expect(mail).toHaveLength(1);
    expect(mail[0]).toMatchObject({ channel: 'email', subject: 'Please sign: Service agreement' });
    expect(mail[0]?.text).toContain(first?.signingUrl ?? 'missing');
    expect(mail[0]?.text).toContain('Please sign by Friday');
    expect(await outboxFor(c)).toEqual([]);

    const detail = await call<EnvelopeBody>('GET', `/v1/envelopes/${draft.id}`, { token });
    expect(detail.body.auditLog?.map((e) => e.event)).toEqual(['envelope.created', 'envelope.sent', 'signer.invited', 'signer.invited']);
    expect(JSON.stringify(detail.body)).not.toContain(first?.signingUrl?.split('/sign/')[1] ?? 'missing');
  });

  it('also texts a signer who signs with sms_otp and has a phone', async () => {
    const email = unique('sms');
    const draft = await readyDraft(token, 'acme', {
      signers: [signer(email, 1, { authMethod: 'sms_otp', phone: '+14155550123' })], fields: [sigField(0)],
    });
    await call('POST', `/v1/envelopes/${draft.id}/send`, { token });
    const texts = await outboxFor('+14155550123');
    expect(texts.some((m) => m.channel === 'sms' && m.text.includes('/sign/'))).toBe(true);
    expect(await outboxFor(email)).toHaveLength(1);
  });

  it('answers 400 for a second send, a draft without document, or a signer without a field', async () => {
    const draft = await readyDraft(token);
    expect((await call('POST', `/v1/envelopes/${draft.id}/send`, { token })).status).toBe(200);
    const again = await call('POST', `/v1/envelopes/${draft.id}/send`, { token });
    expect(again.status).toBe(400);
    expectErrorShape(again.body, 'invalid_state', 400);

    const noDoc = await call<EnvelopeBody>('POST', '/v1/envelopes', { token, json: { tenantId: 'acme', signers: [signer('a@example.com')], fields: [sigField(0)] } });
    const res = await call('POST', `/v1/envelopes/${noDoc.body.id}/send`, { token });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ errors: { document: expect.any(Array) as unknown } });

    const lonely = await createMultipart(token, { tenantId: 'acme', signers: [signer('a@example.com'), signer('b@example.com')], fields: [sigField(0)] });
    const noField = await call('POST', `/v1/envelopes/${lonely.body.id}/send`, { token });
    expect(noField.status).toBe(400);
    expect(noField.body).toMatchObject({ errors: { 'signers[1]': expect.any(Array) as unknown } });
  });

  it('answers 404 for an unknown or malformed id, and 400 for a bad message', async () => {
    expect((await call('POST', '/v1/envelopes/0190f5d2-0000-7000-8000-000000000000/send', { token })).status).toBe(404);
    expect((await call('POST', '/v1/envelopes/not-an-id/send', { token })).status).toBe(404);
    const draft = await readyDraft(token);
    expect((await call('POST', `/v1/envelopes/${draft.id}/send`, { token, json: { message: 42 } })).status).toBe(400);
  });
});

describe('POST /v1/envelopes/{id}/void', () => {
  it('voids draft and sent envelopes, recording the reason, and refuses a terminal one with 400', async () => {
    const draft = await readyDraft(token);
    const voidedDraft = await call<EnvelopeBody>('POST', `/v1/envelopes/${draft.id}/void`, { token });
    expect(voidedDraft.status).toBe(200);
    expect(voidedDraft.body).toMatchObject({ status: 'voided', voidedAt: expect.any(String) as unknown });

    const sent = await readyDraft(token);
    await call('POST', `/v1/envelopes/${sent.id}/send`, { token });
    const res = await call<EnvelopeBody>('POST', `/v1/envelopes/${sent.id}/void`, { token, json: { reason: 'Wrong counterparty' } });
    expect(res.body.status).toBe('voided');
    const detail = await call<EnvelopeBody>('GET', `/v1/envelopes/${sent.id}`, { token });
    expect(detail.body.auditLog?.at(-1)).toMatchObject({ event: 'envelope.voided', detail: { reason: 'Wrong counterparty', previousStatus: 'sent' } });

    const again = await call('POST', `/v1/envelopes/${sent.id}/void`, { token, json: { reason: 'twice' } });
    expect(again.status).toBe(400);
    expectErrorShape(again.body, 'invalid_state', 400);
    expect((await call('POST', `/v1/envelopes/${sent.id}/send`, { token })).status).toBe(400);
  });
});
