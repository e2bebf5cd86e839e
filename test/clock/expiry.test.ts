import { describe, expect, it } from 'vitest';
import { call, newApp, tokenFor } from '#test/support/api.ts';
import { readyDraft, sigField, signer, type EnvelopeBody } from '#test/support/envelopes.ts';
import { Receiver } from '#test/support/receiver.ts';
import { settle, signing, tokenOf } from '#test/support/signing.ts';

describe('expiry on the service clock', () => {
  it('the sweep expires sent and in-progress envelopes past their deadline; links die; drafts stay', async () => {
    const app = await newApp('expiry');
    const receiver = new Receiver();
    await call('POST', '/v1/webhooks', { token: app.token, json: { url: await receiver.start(), events: ['envelope.expired'] } });
    const sent = await readyDraft(app.token, 'expiry', { expiresInDays: 1, signers: [signer('x@example.com', 1, { authMethod: 'none' })], fields: [sigField(0)] });
    const sentBody = (await call<EnvelopeBody>('POST', `/v1/envelopes/${sent.id}/send`, { token: app.token })).body;
    const link = tokenOf(sentBody.signers[0]?.signingUrl);
    expect((await signing('GET', link)).status).toBe(200);
    const draft = await readyDraft(app.token, 'expiry', { expiresInDays: 1 });

    await settle(86_400 - 60);
    let token = await tokenFor(app.clientId, app.clientSecret);
    expect((await call<EnvelopeBody>('GET', `/v1/envelopes/${sent.id}`, { token })).body.status).toBe('in_progress');

    await settle(120);
    token = await tokenFor(app.clientId, app.clientSecret);
    const expired = (await call<EnvelopeBody>('GET', `/v1/envelopes/${sent.id}`, { token })).body;
    expect(expired.status).toBe('expired');
    expect(expired.auditLog?.at(-1)).toMatchObject({ event: 'envelope.expired', actor: 'system' });
    expect((await signing('GET', link)).status).toBe(401);
    expect((await call<EnvelopeBody>('GET', `/v1/envelopes/${draft.id}`, { token })).body.status).toBe('draft');
    expect((await call('POST', `/v1/envelopes/${sent.id}/void`, { token })).status).toBe(400);
    const list = await call<{ total: number }>('GET', '/v1/envelopes?tenantId=expiry&status=expired', { token });
    expect(list.body.total).toBe(1);
    expect(receiver.received.map((r) => [r.json.event, r.json.envelopeId])).toEqual([['envelope.expired', sent.id]]);
    await receiver.stop();
  });

  it('expires lazily: the first call after the deadline applies it, before any sweep', async () => {
    const app = await newApp('lazy');
    const draft = await readyDraft(app.token, 'lazy', { expiresInDays: 2, signers: [signer('y@example.com', 1, { authMethod: 'none' })], fields: [sigField(0)] });
    const sent = (await call<EnvelopeBody>('POST', `/v1/envelopes/${draft.id}/send`, { token: app.token })).body;
    const link = tokenOf(sent.signers[0]?.signingUrl);
    await settle(2 * 86_400 + 1, false);
    expect((await signing('POST', link, '/consent')).status).toBe(401);
    const token = await tokenFor(app.clientId, app.clientSecret);
    expect((await call<EnvelopeBody>('GET', `/v1/envelopes/${draft.id}`, { token })).body.status).toBe('expired');
  });
});
