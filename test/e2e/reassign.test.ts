/**
 * Reassignment over HTTP: by the sender (a current signer, a later one, one who signed), by the signer from their
 * link (allowed or not), every old link refused as replaced, and the webhook event sent only where subscribed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectErrorShape, newApp, outboxFor } from '#test/support/api.ts';
import { createMultipart, sigField, signer, type EnvelopeBody, type Json } from '#test/support/envelopes.ts';
import { Receiver } from '#test/support/receiver.ts';
import { latestCode, passGates, settle, signing, tokenOf, valuesFor, type ContextBody } from '#test/support/signing.ts';

let token: string;
const optedIn = new Receiver();
const defaults = new Receiver();
beforeAll(async () => {
  token = (await newApp('reassign')).token;
  expect((await call('POST', '/v1/webhooks', { token, json: { url: await optedIn.start(), events: ['signer.reassigned'] } })).status).toBe(201);
  const everyOther = ['envelope.created', 'envelope.sent', 'envelope.completed', 'envelope.declined', 'envelope.voided', 'envelope.expired', 'signer.viewed', 'signer.signed', 'signer.declined', 'signer.otp_failed'];
  expect((await call('POST', '/v1/webhooks', { token, json: { url: await defaults.start(), events: everyOther } })).status).toBe(201);
});
afterAll(async () => { await Promise.all([optedIn.stop(), defaults.stop()]); });

const unique = (name: string) => `${name}.${String(Date.now())}.${String(Math.random()).slice(2, 8)}@example.com`;
const linkIn = async (address: string) => tokenOf(/https?:\/\/\S+\/sign\/\S+/.exec((await outboxFor(address)).at(-1)?.text ?? '')?.[0]);
const detail = async (id: string) => (await call<EnvelopeBody>('GET', `/v1/envelopes/${id}`, { token })).body;

async function sentEnvelope(signers: Json[], extra: Json = {}): Promise<EnvelopeBody> {
  const created = await createMultipart(token, { tenantId: 'reassign', subject: 'Handover', signers, fields: signers.map((_, i) => sigField(i, { y: 72 + i * 60 })), ...extra });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const sent = await call<EnvelopeBody>('POST', `/v1/envelopes/${created.body.id}/send`, { token });
  expect(sent.status).toBe(200);
  return sent.body;
}

const expectReplaced = (res: { status: number; body: unknown }) => {
  expect(res.status, JSON.stringify(res.body)).toBe(401);
  expect(res.body).toMatchObject({ error: 'unauthorized', reason: 'link_replaced' });
};

describe('reassignment by the sender', () => {
  it('hands a current signer\'s slot to someone else: old link, verified code and embedded URL all refused; the new person signs', async () => {
    const [ana, zoe, ben] = [unique('ana'), unique('zoe'), unique('ben')];
    const envelope = await sentEnvelope([signer(ana, 1), signer(ben, 2, { authMethod: 'none' })]);
    const slot = envelope.signers[0]!;
    const oldLink = tokenOf(slot.signingUrl);
    expect((await signing('POST', oldLink, '/otp/request')).status).toBe(200);
    expect((await signing('POST', oldLink, '/otp/verify', { code: await latestCode(ana) })).status).toBe(200);
    const embed = await call<{ url: string }>('POST', `/v1/envelopes/${envelope.id}/signers/${slot.id}/embedded-url`, { token, json: {} });
    expect(embed.status).toBe(200);

    const res = await call<Json>('POST', `/v1/envelopes/${envelope.id}/signers/${slot.id}/reassign`, { token, json: { name: 'Zoë Zed', email: zoe, reason: 'Ana is on leave' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: slot.id, name: 'Zoë Zed', email: zoe, routingOrder: 1, status: 'sent', authMethod: 'email_otp' });

    expectReplaced(await signing('GET', oldLink));
    expectReplaced(await signing('POST', oldLink, '/consent'));
    expectReplaced(await signing('POST', oldLink, '/sign', { fields: [] }));
    expectReplaced(await call('POST', `/v1/embedded/${embed.body.url.split('/embed/')[1] ?? ''}/open`));

    await settle();
    const newLink = await linkIn(zoe);
    const context = await signing<ContextBody & { signerName: string }>('GET', newLink);
    expect(context.body).toMatchObject({ signerId: slot.id, signerName: 'Zoë Zed', otpVerified: false });
    await passGates(newLink, zoe);
    expect((await signing('POST', newLink, '/sign', { fields: valuesFor(context.body) })).status).toBe(200);

    const after = await detail(envelope.id);
    const audit = after.auditLog?.find((e) => e.event === 'signer.reassigned');
    expect(audit).toMatchObject({ actor: 'system', detail: { signerId: slot.id, from: { email: ana }, to: { name: 'Zoë Zed', email: zoe }, by: 'sender', reason: 'Ana is on leave' } });
    expect(after.fields.filter((f) => f.signerId === slot.id)).toHaveLength(1);

    const again = await call('POST', `/v1/envelopes/${envelope.id}/signers/${slot.id}/reassign`, { token, json: { name: 'Late', email: unique('late') } });
    expect(again.status).toBe(409);
    expectErrorShape(again.body, 'conflict', 409);
    expect(again.body).toMatchObject({ reason: 'already_signed' });

    const events = (r: Receiver) => r.received.filter((x) => x.json.envelopeId === envelope.id).map((x) => x.json.event);
    expect(events(optedIn)).toEqual(['signer.reassigned']);
    expect(optedIn.received.find((x) => x.json.envelopeId === envelope.id)?.json.data).toMatchObject({ signerId: slot.id });
    expect(events(defaults)).toContain('signer.signed');
    expect(events(defaults)).not.toContain('signer.reassigned');
  });

  it('a later group\'s signer: the new person is invited only when the group is reached', async () => {
    const [ana, ben, bea] = [unique('ana'), unique('ben'), unique('bea')];
    const envelope = await sentEnvelope([signer(ana, 1, { authMethod: 'none' }), signer(ben, 2, { authMethod: 'none' })]);
    const later = envelope.signers[1]!;
    const res = await call('POST', `/v1/envelopes/${envelope.id}/signers/${later.id}/reassign`, { token, json: { name: 'Bea', email: bea, locale: 'de' } });
    expect(res.body).toMatchObject({ id: later.id, email: bea, status: 'pending', locale: 'de' });
    await settle();
    expect(await outboxFor(bea)).toEqual([]);
    const first = tokenOf(envelope.signers[0]?.signingUrl);
    await passGates(first, null);
    const context = await signing<ContextBody>('GET', first);
    expect((await signing('POST', first, '/sign', { fields: valuesFor(context.body) })).status).toBe(200);
    await settle();
    expect((await outboxFor(bea)).length).toBe(1);
    expect(await outboxFor(ben)).toEqual([]);
  });

  it('refuses another signer\'s email, an unknown signer, and a draft', async () => {
    const [ana, ben] = [unique('ana'), unique('ben')];
    const envelope = await sentEnvelope([signer(ana, 1), signer(ben, 1)]);
    const dup = await call('POST', `/v1/envelopes/${envelope.id}/signers/${envelope.signers[0]?.id ?? ''}/reassign`, { token, json: { name: 'Ben', email: ben } });
    expect(dup.status).toBe(400);
    const unknown = await call('POST', `/v1/envelopes/${envelope.id}/signers/sgn_0190f5d2-0000-7000-8000-000000000000/reassign`, { token, json: { name: 'X', email: unique('x') } });
    expect(unknown.status).toBe(404);
    const draft = await createMultipart(token, { tenantId: 'reassign', signers: [signer(unique('d'), 1)], fields: [sigField(0)] });
    const inDraft = await call('POST', `/v1/envelopes/${draft.body.id}/signers/${draft.body.signers[0]?.id ?? ''}/reassign`, { token, json: { name: 'X', email: unique('x') } });
    expect(inDraft.status).toBe(400);
  });
});

describe('reassignment by the signer', () => {
  it('is refused (403 reassign_not_allowed) unless the envelope allows it', async () => {
    const envelope = await sentEnvelope([signer(unique('ana'), 1, { authMethod: 'none' })]);
    const res = await signing('POST', tokenOf(envelope.signers[0]?.signingUrl), '/reassign', { name: 'Zed', email: unique('zed') });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error: 'forbidden', reason: 'reassign_not_allowed' });
  });

  it('after the code: the person named is invited, the link stops working, the audit says by whom and why', async () => {
    const [ana, zed] = [unique('ana'), unique('zed')];
    const envelope = await sentEnvelope([signer(ana, 1)], { allowReassign: true });
    expect((envelope as EnvelopeBody & { allowReassign: boolean }).allowReassign).toBe(true);
    const link = tokenOf(envelope.signers[0]?.signingUrl);
    const early = await signing('POST', link, '/reassign', { name: 'Zed', email: zed });
    expect(early.body).toMatchObject({ reason: 'otp_required' });
    expect((await signing('POST', link, '/otp/request')).status).toBe(200);
    expect((await signing('POST', link, '/otp/verify', { code: await latestCode(ana) })).status).toBe(200);
    const res = await signing('POST', link, '/reassign', { name: 'Zed', email: zed, reason: 'My colleague signs contracts' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ reassigned: true });
    expectReplaced(await signing('GET', link));
    await settle();
    const context = await signing<{ signerName: string; signerEmail: string }>('GET', await linkIn(zed));
    expect(context.body).toMatchObject({ signerName: 'Zed', signerEmail: zed });
    const audit = (await detail(envelope.id)).auditLog?.find((e) => e.event === 'signer.reassigned');
    expect(audit).toMatchObject({ actor: `signer:${envelope.signers[0]?.id ?? ''}`, detail: { by: 'signer', reason: 'My colleague signs contracts', from: { email: ana }, to: { email: zed } } });
  });
});
