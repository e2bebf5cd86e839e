/**
 * The person whose place is handed to someone else is told they no longer need to sign: in their own language,
 * through the outbox (the jobs worker's notice), whoever handed it over; a later group's person, never invited,
 * hears nothing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { call, newApp, outboxFor } from '#test/support/api.ts';
import { createMultipart, sigField, signer, type EnvelopeBody, type Json } from '#test/support/envelopes.ts';
import { settle, signing, tokenOf } from '#test/support/signing.ts';

let token: string;
beforeAll(async () => { token = (await newApp('reassign notice')).token; });

const unique = (name: string) => `${name}.${String(Date.now())}.${String(Math.random()).slice(2, 8)}@example.com`;

async function sentEnvelope(subject: string, signers: Json[], extra: Json = {}): Promise<EnvelopeBody> {
  const created = await createMultipart(token, { tenantId: 'reassign', subject, signers, fields: signers.map((_, i) => sigField(i, { y: 72 + i * 60 })), ...extra });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const sent = await call<EnvelopeBody>('POST', `/v1/envelopes/${created.body.id}/send`, { token });
  expect(sent.status).toBe(200);
  return sent.body;
}

describe('the notice to the person who no longer signs', () => {
  it('tells a German signer the sender handed their place over, in German, with the reason; the new person is invited', async () => {
    const [jana, carla] = [unique('jana'), unique('carla')];
    const envelope = await sentEnvelope('Dienstvertrag', [signer(jana, 1, { locale: 'de', authMethod: 'none' })]);
    const slot = envelope.signers[0]!;
    const res = await call('POST', `/v1/envelopes/${envelope.id}/signers/${slot.id}/reassign`, { token, json: { name: 'Carla Nunes', email: carla, reason: 'Jana ist im Urlaub' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await settle();
    const told = (await outboxFor(jana)).filter((m) => m.subject?.startsWith('Nicht mehr von Ihnen zu unterschreiben'));
    expect(told).toHaveLength(1);
    expect(told[0]?.subject).toBe('Nicht mehr von Ihnen zu unterschreiben: Dienstvertrag');
    expect(told[0]?.text).toContain('Angegebener Grund: Jana ist im Urlaub');
    expect(told[0]?.text).toContain('funktioniert nicht mehr');
    // Only the invitation and this notice: no link in it
    expect(told[0]?.text).not.toMatch(/\/sign\//);
    expect((await outboxFor(carla)).some((m) => m.text.includes('/sign/'))).toBe(true);
  });

  it('tells a signer who handed their own place over from the signing page, in English, without a reason line', async () => {
    const [ana, zoe] = [unique('ana'), unique('zoe')];
    const envelope = await sentEnvelope('Handover', [signer(ana, 1, { authMethod: 'none' })], { allowReassign: true });
    const link = tokenOf(envelope.signers[0]?.signingUrl);
    expect((await signing('POST', link, '/consent')).status).toBe(200);
    const res = await signing('POST', link, '/reassign', { name: 'Zoë Zed', email: zoe });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await settle();
    const told = (await outboxFor(ana)).filter((m) => m.subject === 'No longer yours to sign: Handover');
    expect(told).toHaveLength(1);
    expect(told[0]?.text).toContain('Someone else has been asked to sign Handover in your place');
    expect(told[0]?.text).not.toContain('Reason given');
  });

  it('says nothing to a later group\'s person, who was never invited', async () => {
    const [first, later, instead] = [unique('first'), unique('later'), unique('instead')];
    const envelope = await sentEnvelope('Two steps', [signer(first, 1, { authMethod: 'none' }), signer(later, 2, { authMethod: 'none' })]);
    const slot = envelope.signers[1]!;
    expect(slot.status).toBe('pending');
    const res = await call('POST', `/v1/envelopes/${envelope.id}/signers/${slot.id}/reassign`, { token, json: { name: 'Instead', email: instead } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await settle();
    expect(await outboxFor(later)).toEqual([]);
    expect(await outboxFor(instead)).toEqual([]);
  });
});
