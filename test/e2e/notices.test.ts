import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call, newApp, outboxFor } from '#test/support/api.ts';
import { createMultipart, sigField, signer, type EnvelopeBody } from '#test/support/envelopes.ts';
import { passGates, settle, signing, tokenOf, valuesFor, type ContextBody } from '#test/support/signing.ts';

const unique = (name: string) => `${name}-${randomUUID().slice(0, 8)}@example.com`;

async function sent(token: string, data: Record<string, unknown>): Promise<EnvelopeBody> {
  const created = await createMultipart(token, { tenantId: 'notices', subject: 'Offer letter', ...data });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const res = await call<EnvelopeBody>('POST', `/v1/envelopes/${created.body.id}/send`, { token });
  expect(res.status).toBe(200);
  await settle();
  return res.body;
}

describe('carbon copies and notices (decision 38)', () => {
  it('cc: at most 20, shown on the envelope', async () => {
    const { token } = await newApp('cc limits');
    const many = Array.from({ length: 21 }, (_, i) => ({ name: `C${String(i)}`, email: `c${String(i)}@example.com` }));
    const refused = await createMultipart(token, { tenantId: 'notices', signers: [signer('a@example.com')], fields: [sigField(0)], cc: many });
    expect(refused.status).toBe(400);
    expect(Object.keys((refused.body as unknown as { errors: object }).errors)).toEqual(['cc']);
    expect((await createMultipart(token, { tenantId: 'notices', signers: [signer('a@example.com')], cc: [{ name: 'X', email: 'not-an-email' }] })).status).toBe(400);
    const json = await call<EnvelopeBody & { cc: unknown }>('POST', '/v1/envelopes', { token, json: { tenantId: 'notices', signers: [signer('a@example.com')], cc: [{ name: 'Carla', email: 'carla@example.com' }] } });
    expect(json.status).toBe(201);
    expect(json.body.cc).toEqual([{ name: 'Carla', email: 'carla@example.com' }]);
  });

  it('void: every invited signer and cc is told, with the reason; later groups and embedded signers are not', async () => {
    const { token } = await newApp('void notices');
    const [ana, ben, later, embedded, cc] = [unique('ana'), unique('ben'), unique('later'), unique('embedded'), unique('cc')];
    const envelope = await sent(token, {
      signers: [signer(ana, 1, { authMethod: 'none' }), signer(ben, 1), signer(embedded, 1, { embedded: true }), signer(later, 2)],
      fields: [sigField(0), sigField(1), sigField(2), sigField(3)], cc: [{ name: 'Carla', email: cc }],
    });
    expect((await call('POST', `/v1/envelopes/${envelope.id}/void`, { token, json: { reason: 'Terms changed' } })).status).toBe(200);
    await settle();
    for (const address of [ana, ben, cc]) {
      const notice = (await outboxFor(address)).find((m) => m.subject === 'Cancelled: Offer letter');
      expect(notice?.text).toContain('Reason given: Terms changed');
    }
    expect(await outboxFor(later)).toEqual([]);
    expect(await outboxFor(embedded)).toEqual([]);
    // The signing page's voided screen shows the answer's message, which carries the reason
    const opened = await signing<{ reason: string; message: string }>('GET', tokenOf(envelope.signers[0]?.signingUrl));
    expect(opened.status).toBe(401);
    expect(opened.body).toMatchObject({ reason: 'envelope_voided', message: expect.stringContaining('Terms changed') as unknown });
  });

  it('decline: the others and cc hear who declined and why', async () => {
    const { token } = await newApp('decline notices');
    const [ana, ben, cc] = [unique('ana'), unique('ben'), unique('cc')];
    const envelope = await sent(token, {
      signers: [signer(ana, 1, { authMethod: 'none', name: 'Ana Silva' }), signer(ben, 1, { authMethod: 'none' })], fields: [sigField(0), sigField(1)], cc: [{ name: 'Carla', email: cc }],
    });
    const link = tokenOf(envelope.signers[0]?.signingUrl);
    await passGates(link, null);
    expect((await signing('POST', link, '/decline', { reason: 'Wrong salary' })).status).toBe(200);
    await settle();
    for (const address of [ben, cc]) {
      const notice = (await outboxFor(address)).find((m) => m.subject === 'Declined: Offer letter');
      expect(notice?.text).toContain('Ana Silva declined to sign Offer letter');
      expect(notice?.text).toContain('Their reason: Wrong salary');
    }
    expect((await outboxFor(ana)).map((m) => m.subject)).not.toContain('Declined: Offer letter');
  });

  it('cc receives the completion email with the sealed copy', async () => {
    const { token } = await newApp('cc completion');
    const [ana, cc] = [unique('ana'), unique('cc')];
    const envelope = await sent(token, { signers: [signer(ana, 1, { authMethod: 'none' })], fields: [sigField(0)], cc: [{ name: 'Carla', email: cc }] });
    const link = tokenOf(envelope.signers[0]?.signingUrl);
    await passGates(link, null);
    const context = await signing<ContextBody>('GET', link);
    expect((await signing('POST', link, '/sign', { fields: valuesFor(context.body) })).status).toBe(200);
    await settle();
    await expect.poll(async () => (await call<EnvelopeBody>('GET', `/v1/envelopes/${envelope.id}`, { token })).body.status).toBe('completed');
    await settle();
    const completion = (await outboxFor(cc)).find((m) => m.subject === 'Completed: Offer letter');
    expect(completion?.text).toContain('Hello Carla');
    expect(completion?.text).toMatch(/\/download\/\S+/);
    expect((await outboxFor(cc)).map((m) => m.subject)).toEqual(['Completed: Offer letter']);
    // The signer's used link now points at their download page instead of promising an email
    const again = await signing<{ reason: string; downloadUrl?: string }>('GET', link);
    expect(again.status).toBe(410);
    expect(again.body.reason).toBe('already_signed');
    const emailed = /\S+\/download\/\S+/.exec((await outboxFor(ana)).find((m) => m.subject === 'Completed: Offer letter')?.text ?? '')?.[0];
    expect(again.body.downloadUrl).toBe(emailed);
  });
});
