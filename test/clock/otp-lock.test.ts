/**
 * A signing link's lifetime budget of one-time codes over HTTP on the local stack. Guessing inside the rate limit
 * takes several 10-minute windows, so the service clock moves (a clock test): the codes come from the local outbox,
 * the link locks at the budget's last wrong code, every signing route answers 401 otp_locked, the audit log and the
 * sender's mailbox say so, and the sender's resend brings a link that works.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call, newApp, outboxFor } from '#test/support/api.ts';
import { createMultipart, sigField, signer, type EnvelopeBody } from '#test/support/envelopes.ts';
import { guessWrongCodes, latestCode, settle, signing, tokenOf } from '#test/support/signing.ts';

const unique = (name: string) => `${name}-${randomUUID().slice(0, 8)}@example.com`;

describe('the one-time code budget of a signing link', () => {
  it('locks after 50 wrong codes: 401 otp_locked on every signing route, audited, the sender told; resend unlocks', async () => {
    const { token } = await newApp('otp budget');
    const [ana, sender] = [unique('ana'), unique('sender')];
    const created = await createMultipart(token, { tenantId: 'otp', subject: 'Lease', createdBy: sender, signers: [signer(ana, 1, { name: 'Ana Lima' })], fields: [sigField(0)] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const sent = await call<EnvelopeBody>('POST', `/v1/envelopes/${created.body.id}/send`, { token });
    expect(sent.status).toBe(200);
    const link = tokenOf(sent.body.signers[0]?.signingUrl);
    const signerId = sent.body.signers[0]?.id ?? '';

    // A guesser inside the rate limit: 5 codes per 10 minutes, 3 wrong tries each, until the link refuses
    const { wrong, refused } = await guessWrongCodes(link, ana, 75);
    expect(wrong).toBe(50);
    expect(refused).toMatchObject({ status: 401, body: { error: 'unauthorized', reason: 'otp_locked' } });

    // Every signing route of the link, the right code included
    const right = await latestCode(ana);
    for (const [method, path, body] of [
      ['GET', '', undefined], ['POST', '/otp/request', undefined], ['POST', '/otp/verify', { code: right }], ['POST', '/consent', undefined],
      ['GET', '/document', undefined], ['POST', '/sign', { fields: [] }], ['POST', '/decline', { reason: 'no' }],
    ] as const) {
      const res = await signing(method, link, path, body);
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.body, `${method} ${path}`).toMatchObject({ reason: 'otp_locked' });
    }

    const detail = async () => (await call<EnvelopeBody>('GET', `/v1/envelopes/${created.body.id}`, { token })).body;
    const locked = (await detail()).auditLog?.filter((e) => e.event === 'signer.otp_locked');
    expect(locked).toEqual([expect.objectContaining({ actor: `signer:${signerId}`, detail: { cause: 'wrong_codes', codesSent: 17, wrongTries: 50 } })]);

    // The sender's notice goes out through the jobs worker
    await settle();
    const notice = (await outboxFor(sender)).find((m) => m.subject === 'Signing link locked: Lease');
    expect(notice?.text).toContain(`The signing link of Ana Lima (${ana}) for Lease is locked`);
    expect(notice?.html).toContain('<strong>Lease</strong>');

    // The sender resends: the new link has a fresh budget, the old one stays retired
    const resent = await call<{ signingUrl: string }>('POST', `/v1/envelopes/${created.body.id}/signers/${signerId}/resend`, { token });
    expect(resent.status).toBe(200);
    const fresh = tokenOf(resent.body.signingUrl);
    expect((await signing('GET', link)).body).toMatchObject({ reason: 'link_replaced' });
    expect((await signing('GET', fresh)).status).toBe(200);
    expect((await signing('POST', fresh, '/otp/request')).status).toBe(200);
    expect((await signing('POST', fresh, '/otp/verify', { code: await latestCode(ana) })).body).toEqual({ verified: true });
    expect((await signing('POST', fresh, '/consent')).status).toBe(200);
    const audit = (await detail()).auditLog ?? [];
    expect(audit.filter((e) => e.event === 'signer.otp_unlocked')).toEqual([expect.objectContaining({ detail: expect.objectContaining({ signerId, wrongTries: 50 }) as unknown })]);
    expect((await call('GET', `/v1/envelopes/${created.body.id}/audit/verify`, { token })).body).toMatchObject({ valid: true });
  });
});
