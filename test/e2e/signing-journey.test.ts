import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectErrorShape, newApp, outboxFor } from '#test/support/api.ts';
import { readyDraft, sigField, signer, type EnvelopeBody } from '#test/support/envelopes.ts';
import { latestCode, passGates, pngBase64, settle, signing, tokenOf, valuesFor, type ContextBody } from '#test/support/signing.ts';

let token: string;
beforeAll(async () => { token = (await newApp('journey')).token; });

const unique = (name: string) => `${name}.${String(Date.now())}.${String(Math.random()).slice(2, 8)}@example.com`;
const phone = () => `+1415${String(Math.floor(1_000_000 + Math.random() * 8_999_999))}`;

async function sentEnvelope(signers: Record<string, unknown>[], fields: Record<string, unknown>[]): Promise<EnvelopeBody> {
  const draft = await readyDraft(token, 'journey', { signers, fields });
  const sent = await call<EnvelopeBody>('POST', `/v1/envelopes/${draft.id}/send`, { token });
  expect(sent.status).toBe(200);
  return sent.body;
}

const detail = async (id: string) => (await call<EnvelopeBody>('GET', `/v1/envelopes/${id}`, { token })).body;

describe('a two-group envelope signed end to end', () => {
  it('takes each signer through OTP (email, SMS, none), consent and signature, advancing the groups in order', async () => {
    const [ana, ben, cy, benPhone] = [unique('ana'), unique('ben'), unique('cy'), phone()];
    const envelope = await sentEnvelope(
      [signer(ana, 1), signer(ben, 1, { authMethod: 'sms_otp', phone: benPhone }), signer(cy, 2, { authMethod: 'none' })],
      [sigField(0), { signerIndex: 0, type: 'text', page: 1, x: 72, y: 200, w: 200, h: 20 }, { signerIndex: 0, type: 'checkbox', page: 1, x: 72, y: 240, w: 12, h: 12 },
        { signerIndex: 0, type: 'date', page: 1, x: 300, y: 72, w: 100, h: 20 }, sigField(1, { type: 'initial', w: 40 }), sigField(2, { page: 2 })],
    );
    const [anaUrl, benUrl, cyUrl] = envelope.signers.map((s) => s.signingUrl);
    expect(cyUrl).toBeNull();

    const context = await signing<ContextBody>('GET', tokenOf(anaUrl), '', undefined);
    expect(context.status).toBe(200);
    expect(context.body).toMatchObject({ envelopeId: envelope.id, signerName: ana.split('@')[0], signerEmail: ana, requiresOtpVerification: true, otpVerified: false });
    expect(context.body.fields).toHaveLength(4);
    expect((await detail(envelope.id))).toMatchObject({ status: 'in_progress', signers: [{ status: 'viewed' }, { status: 'sent' }, { status: 'pending' }] });

    const otp = await signing('POST', tokenOf(anaUrl), '/otp/request');
    expect(otp.body).toMatchObject({ maskedEmail: expect.stringMatching(/^a\*+@example\.com$/) as unknown, channel: 'email' });
    expect(JSON.stringify(otp.body)).not.toContain(ana);
    expect((await signing('POST', tokenOf(anaUrl), '/otp/verify', { code: await latestCode(ana) })).body).toEqual({ verified: true });
    expect((await signing('POST', tokenOf(anaUrl), '/consent')).status).toBe(200);
    const signed = await signing('POST', tokenOf(anaUrl), '/sign', { fields: valuesFor(context.body) });
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    await settle();
    expect(await outboxFor(cy)).toEqual([]);

    const benSms = await signing('POST', tokenOf(benUrl), '/otp/request');
    expect(benSms.body).toMatchObject({ channel: 'sms', maskedPhone: expect.stringMatching(/\*{3,}\d{3}$/) as unknown });
    await signing('POST', tokenOf(benUrl), '/otp/verify', { code: await latestCode(benPhone) });
    await signing('POST', tokenOf(benUrl), '/consent');
    const benContext = await signing<ContextBody>('GET', tokenOf(benUrl));
    const typed = await signing('POST', tokenOf(benUrl), '/sign', { fields: [{ fieldId: benContext.body.fields[0]?.id, textValue: 'B.O.' }], fontLabel: 'Caveat' });
    expect(typed.status, JSON.stringify(typed.body)).toBe(200);

    await settle();
    const invitation = await outboxFor(cy);
    expect(invitation).toHaveLength(1);
    const cyToken = tokenOf(/https?:\/\/\S+\/sign\/\S+/.exec(invitation[0]?.text ?? '')?.[0]);
    const cyContext = await signing<ContextBody>('GET', cyToken);
    expect(cyContext.body.requiresOtpVerification).toBe(false);
    await passGates(cyToken, null);
    expect((await signing('POST', cyToken, '/sign', { fields: valuesFor(cyContext.body) })).status).toBe(200);

    const final = await detail(envelope.id);
    expect(final.signers.map((s) => s.status)).toEqual(['signed', 'signed', 'signed']);
    const events = final.auditLog?.map((e) => e.event) ?? [];
    expect(events.filter((e) => e === 'signer.signed')).toHaveLength(3);
    expect(events.filter((e) => e === 'signer.invited')).toHaveLength(3);
    const signedAt = events.flatMap((e, i) => (e === 'signer.signed' ? [i] : []));
    expect(events.lastIndexOf('signer.invited')).toBeGreaterThan(signedAt[1] ?? Infinity); // group 2 only after group 1 signed
    const consent = final.auditLog?.find((e) => e.event === 'signer.consented');
    expect(consent).toMatchObject({ actor: `signer:${final.signers[0]?.id ?? ''}`, ip: '127.0.0.1', detail: { disclosureVersion: expect.any(String) as unknown } });
    expect((await call('GET', `/v1/envelopes/${envelope.id}/audit/verify`, { token })).body).toMatchObject({ valid: true });

    expect((await signing('GET', tokenOf(anaUrl))).status).toBe(410);
    expect((await signing('POST', tokenOf(anaUrl), '/otp/request')).status).toBe(410);
    const again = await signing('POST', tokenOf(anaUrl), '/sign', { fields: [] });
    expect(again.status).toBe(409);
    expectErrorShape(again.body, 'conflict', 409);
    expect((await signing('POST', cyToken, '/decline')).status).toBe(409);
  });
});

describe('gates and refusals (decision 14)', () => {
  it('answers 401 for a garbage, tampered or voided link', async () => {
    expect((await signing('GET', 'not-a-token')).status).toBe(401);
    const email = unique('gate');
    const envelope = await sentEnvelope([signer(email)], [sigField(0)]);
    const link = tokenOf(envelope.signers[0]?.signingUrl);
    const [h, p, s] = link.split('.');
    const forged = `${h ?? ''}.${p ?? ''}.${(s ?? '').slice(0, -2)}${(s ?? '').endsWith('AA') ? 'BB' : 'AA'}`;
    const tampered = await signing('GET', forged);
    expect(tampered.status).toBe(401);
    expectErrorShape(tampered.body, 'unauthorized', 401);
    await call('POST', `/v1/envelopes/${envelope.id}/void`, { token, json: { reason: 'stop' } });
    for (const path of ['', '/document']) expect((await signing('GET', link, path)).status).toBe(401);
    for (const path of ['/otp/request', '/consent', '/decline']) expect((await signing('POST', link, path)).status).toBe(401);
  });

  it('orders the gates: OTP, then consent (once), then sign', async () => {
    const email = unique('order');
    const envelope = await sentEnvelope([signer(email)], [sigField(0)]);
    const link = tokenOf(envelope.signers[0]?.signingUrl);
    expect((await signing('POST', link, '/consent')).status).toBe(401);
    expect((await signing('GET', link, '/document')).status).toBe(401);
    expect((await signing('POST', link, '/sign', { fields: [] })).status).toBe(401);
    await signing('POST', link, '/otp/request');
    await signing('POST', link, '/otp/verify', { code: await latestCode(email) });
    const pdf = await signing('GET', link, '/document');
    expect(pdf.status).toBe(200);
    expect(createHash('sha256').update(pdf.bytes).digest('hex')).toBe((await detail(envelope.id)).documentHashOriginal);
    expect((await signing('POST', link, '/sign', { fields: [] })).status).toBe(401);
    expect((await signing('POST', link, '/consent')).status).toBe(200);
    const twice = await signing('POST', link, '/consent');
    expect(twice.status).toBe(409);
    expectErrorShape(twice.body, 'conflict', 409);
  });

  it('checks codes: exactly 6 characters, wrong ones counted, the third failure burns the code', async () => {
    const email = unique('otp');
    const envelope = await sentEnvelope([signer(email)], [sigField(0)]);
    const link = tokenOf(envelope.signers[0]?.signingUrl);
    expect((await signing('POST', link, '/otp/verify', { code: '123456' })).status).toBe(400);
    await signing('POST', link, '/otp/request');
    const code = await latestCode(email);
    const wrong = code === '000000' ? '111111' : '000000';
    const short = await signing('POST', link, '/otp/verify', { code: '12345' });
    expect(short.status).toBe(400);
    expect(short.body).toMatchObject({ error: 'validation_error', errors: { code: expect.any(Array) as unknown } });
    for (let i = 0; i < 3; i++) expect((await signing('POST', link, '/otp/verify', { code: wrong })).status).toBe(400);
    expect((await signing('POST', link, '/otp/verify', { code })).status).toBe(400);
    const audit = (await detail(envelope.id)).auditLog ?? [];
    expect(audit.filter((e) => e.event === 'signer.otp_failed')).toHaveLength(1);
    await signing('POST', link, '/otp/request');
    expect((await signing('POST', link, '/otp/verify', { code: await latestCode(email) })).body).toEqual({ verified: true });
  });

  it('limits code requests to 5 in 10 minutes with 429 and Retry-After', async () => {
    const envelope = await sentEnvelope([signer(unique('rate'))], [sigField(0)]);
    const link = tokenOf(envelope.signers[0]?.signingUrl);
    for (let i = 0; i < 5; i++) expect((await signing('POST', link, '/otp/request')).status).toBe(200);
    const limited = await signing('POST', link, '/otp/request');
    expect(limited.status).toBe(429);
    expectErrorShape(limited.body, 'rate_limited', 429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('checks submitted values (decision 16), naming the offending entry', async () => {
    const other = unique('other');
    const envelope = await sentEnvelope([signer(unique('vals'), 1, { authMethod: 'none' }), signer(other, 1, { authMethod: 'none' })], [
      sigField(0), { signerIndex: 0, type: 'text', page: 1, x: 72, y: 200, w: 200, h: 20 }, { signerIndex: 0, type: 'checkbox', page: 1, x: 72, y: 240, w: 12, h: 12, required: false }, sigField(1),
    ]);
    const link = tokenOf(envelope.signers[0]?.signingUrl);
    await passGates(link, null);
    const ctx = (await signing<ContextBody>('GET', link)).body;
    const [sig, text, box] = ctx.fields;
    const othersField = envelope.fields.find((f) => f.signerId === envelope.signers[1]?.id)?.id;
    const cases: [unknown, string][] = [
      [{ fields: [{ fieldId: sig?.id, signatureImageBase64: pngBase64 }] }, 'fields'],
      [{ fields: [{ fieldId: sig?.id, signatureImageBase64: Buffer.from('not a png').toString('base64') }, { fieldId: text?.id, textValue: 'x' }] }, 'fields[0]'],
      [{ fields: [{ fieldId: sig?.id, textValue: 'Typed Name' }, { fieldId: text?.id, textValue: 'x' }] }, 'fields[0]'],
      [{ fields: [{ fieldId: sig?.id, signatureImageBase64: pngBase64 }, { fieldId: text?.id, textValue: 'x'.repeat(1001) }] }, 'fields[1]'],
      [{ fields: [{ fieldId: sig?.id, signatureImageBase64: pngBase64 }, { fieldId: text?.id, textValue: 'x' }, { fieldId: box?.id, textValue: 'yes' }] }, 'fields[2]'],
      [{ fields: [{ fieldId: sig?.id, signatureImageBase64: pngBase64 }, { fieldId: text?.id, textValue: 'x' }, { fieldId: othersField, textValue: 'x' }] }, 'fields[2].fieldId'],
      [{ fields: [{ fieldId: 'nope' }] }, 'fields[0].fieldId'],
    ];
    for (const [body, path] of cases) {
      const res = await signing('POST', link, '/sign', body);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(Object.keys((res.body as { errors: object }).errors)).toContain(path);
    }
    const ok = await signing('POST', link, '/sign', { fields: [{ fieldId: `fld_${sig?.id ?? ''}`, signatureImageBase64: `data:image/png;base64,${pngBase64}` }, { fieldId: text?.id, textValue: 'x' }] });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toMatchObject({ signed: true, envelopeStatus: 'in_progress' });
  });

  it('declines: the envelope is declined, the other links close, the decliner\'s link is used', async () => {
    const [a, b] = [unique('dec'), unique('dec2')];
    const envelope = await sentEnvelope([signer(a, 1, { authMethod: 'none' }), signer(b, 1, { authMethod: 'none' })], [sigField(0), sigField(1)]);
    const [la, lb] = envelope.signers.map((s) => tokenOf(s.signingUrl));
    const declined = await signing('POST', la ?? '', '/decline', { reason: 'Terms are wrong' });
    expect(declined.status).toBe(200);
    const after = await detail(envelope.id);
    expect(after).toMatchObject({ status: 'declined', signers: [{ status: 'declined' }, { status: 'sent' }] });
    expect(after.auditLog?.slice(-2)).toMatchObject([{ event: 'signer.declined', detail: { reason: 'Terms are wrong' } }, { event: 'envelope.declined' }]);
    expect((await signing('GET', la ?? '')).status).toBe(410);
    expect((await signing('POST', la ?? '', '/decline')).status).toBe(409);
    expect((await signing('GET', lb ?? '')).status).toBe(401);
    expect((await call('POST', `/v1/envelopes/${envelope.id}/void`, { token })).status).toBe(400);
  });

  it('resends a link: the new one works, the old one is refused, later groups cannot be resent yet', async () => {
    const email = unique('resend');
    const envelope = await sentEnvelope([signer(email), signer(unique('later'), 2)], [sigField(0), sigField(1)]);
    const [first, later] = envelope.signers;
    const resent = await call<{ signingUrl: string }>('POST', `/v1/envelopes/${envelope.id}/signers/${first?.id ?? ''}/resend`, { token });
    expect(resent.status).toBe(200);
    expect(resent.body.signingUrl).not.toBe(first?.signingUrl);
    expect((await signing('GET', tokenOf(first?.signingUrl))).status).toBe(401);
    expect((await signing('GET', tokenOf(resent.body.signingUrl))).status).toBe(200);
    expect(await outboxFor(email)).toHaveLength(2);
    expect((await call('POST', `/v1/envelopes/${envelope.id}/signers/${later?.id ?? ''}/resend`, { token })).status).toBe(400);
    expect((await call('POST', `/v1/envelopes/${envelope.id}/signers/${first?.id ?? ''}/resend`, { token: (await newApp('x')).token })).status).toBe(404);
  });
});

describe('a parallel group signing at the same moment', () => {
  it('advances exactly once, keeps both signatures and an intact chain (20 trials)', async () => {
    for (let trial = 0; trial < 20; trial++) {
      const next = unique(`next${String(trial)}`);
      const envelope = await sentEnvelope(
        [signer(unique('p1'), 1, { authMethod: 'none' }), signer(unique('p2'), 1, { authMethod: 'none' }), signer(next, 2, { authMethod: 'none' })],
        [sigField(0), sigField(1), sigField(2)],
      );
      const links = envelope.signers.slice(0, 2).map((s) => tokenOf(s.signingUrl));
      await Promise.all(links.map((l) => passGates(l, null)));
      const contexts = await Promise.all(links.map((l) => signing<ContextBody>('GET', l)));
      const signs = await Promise.all(links.map((l, i) => signing('POST', l, '/sign', { fields: valuesFor(contexts[i]!.body) })));
      expect(signs.map((r) => r.status)).toEqual([200, 200]);
      await settle();
      const after = await detail(envelope.id);
      expect(after.signers.map((s) => s.status)).toEqual(['signed', 'signed', 'sent']);
      expect(after.auditLog?.filter((e) => e.event === 'signer.invited' && e.detail?.signerId === after.signers[2]?.id)).toHaveLength(1);
      expect(await outboxFor(next)).toHaveLength(1);
      expect((await call('GET', `/v1/envelopes/${envelope.id}/audit/verify`, { token })).body).toMatchObject({ valid: true });
    }
  }, 120_000);
});
