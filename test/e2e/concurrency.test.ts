import { beforeAll, describe, expect, it } from 'vitest';
import { call, newApp, outboxFor } from '#test/support/api.ts';
import { readyDraft, signer, sigField, type EnvelopeBody } from '#test/support/envelopes.ts';

let token: string;
beforeAll(async () => { token = (await newApp('concurrency')).token; });

describe('concurrent changes to one envelope', () => {
  it('keeps all ten signers added at the same moment, with one unbroken audit chain', async () => {
    const draft = await readyDraft(token);
    const adds = await Promise.all(Array.from({ length: 10 }, (_, i) =>
      call('POST', `/v1/envelopes/${draft.id}/signers`, { token, json: { name: `P${String(i)}`, email: `p${String(i)}@example.com`, routingOrder: 3 } })));
    expect(adds.map((r) => r.status)).toEqual(Array(10).fill(201));
    const after = await call<EnvelopeBody>('GET', `/v1/envelopes/${draft.id}`, { token });
    expect(after.body.signers).toHaveLength(13);
    expect(after.body.auditLog?.filter((e) => e.event === 'signer.added')).toHaveLength(10);
    expect((await call('GET', `/v1/envelopes/${draft.id}/audit/verify`, { token })).body).toMatchObject({ valid: true, events: 11 });
  });

  it('sends once when five sends race: one 200, the rest 400, one invitation per signer', async () => {
    const email = `race.${String(Date.now())}@example.com`;
    const draft = await readyDraft(token, 'acme', { signers: [signer(email)], fields: [sigField(0)] });
    const sends = await Promise.all(Array.from({ length: 5 }, () => call('POST', `/v1/envelopes/${draft.id}/send`, { token })));
    expect(sends.map((r) => r.status).sort()).toEqual([200, 400, 400, 400, 400]);
    expect(await outboxFor(email)).toHaveLength(1);
    const detail = await call<EnvelopeBody>('GET', `/v1/envelopes/${draft.id}`, { token });
    expect(detail.body.auditLog?.filter((e) => e.event === 'envelope.sent')).toHaveLength(1);
  });

  it('settles a race between send and void with exactly one winner', async () => {
    const draft = await readyDraft(token);
    const [send, voided] = await Promise.all([
      call<EnvelopeBody>('POST', `/v1/envelopes/${draft.id}/send`, { token }),
      call<EnvelopeBody>('POST', `/v1/envelopes/${draft.id}/void`, { token }),
    ]);
    const detail = await call<EnvelopeBody>('GET', `/v1/envelopes/${draft.id}`, { token });
    expect(detail.body.status).toBe('voided'); // void wins either way: it also applies to a sent envelope
    expect(voided.status).toBe(200);
    expect([200, 400]).toContain(send.status);
    expect((await call('GET', `/v1/envelopes/${draft.id}/audit/verify`, { token })).body).toMatchObject({ valid: true });
  });
});
