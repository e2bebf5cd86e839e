import { beforeAll, describe, expect, it } from 'vitest';
import { call, newApp } from '#test/support/api.ts';
import { createMultipart, sigField, signer, type EnvelopeBody } from '#test/support/envelopes.ts';
import { makePdf } from '#test/support/pdfs.ts';
import { latestCode, pngBase64, settle, tokenOf, type ContextBody } from '#test/support/signing.ts';
import { pdftotext, tempPdf } from '#test/support/validators.ts';

let token: string;
beforeAll(async () => { token = (await newApp('sealing-certificate')).token; });

const unique = (name: string) => `${name}.${String(Date.now())}.${String(Math.random()).slice(2, 8)}@example.com`;
const PHONE = `+49151${String(Math.floor(Math.random() * 1e6)).padStart(6, '0')}${String(Math.floor(Math.random() * 90) + 10)}`;
const BROWSER = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) EvidenceBrowser/1.0' };

describe('the sealed PDF over HTTP', () => {
  it('its audit certificate states the SMS code to a masked number, the consent version, the typed signature, each action\'s user agent, the sender and the carbon copy', async () => {
    const email = unique('evidence');
    const created = await createMultipart(token, {
      tenantId: 'evidence', subject: 'Evidence contract', createdBy: 'Erika Sender', cc: [{ name: 'Carla Copy', email: unique('carla') }],
      signers: [signer(email, 1, { name: 'Ada Signer', authMethod: 'sms_otp', phone: PHONE })], fields: [sigField(0), { signerIndex: 0, type: 'initial', page: 1, x: 300, y: 72, w: 80, h: 40 }],
    }, await makePdf({ pages: 1 }));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const sent = await call<EnvelopeBody>('POST', `/v1/envelopes/${created.body.id}/send`, { token });
    const t = tokenOf(sent.body.signers[0]?.signingUrl);
    const asBrowser = (path: string, json?: unknown) => call<ContextBody>(json === undefined ? 'GET' : 'POST', `/v1/signing/${t}${path}`, { headers: BROWSER, ...(json === undefined ? {} : { json }) });
    const context = (await asBrowser('')).body;
    expect((await asBrowser('/otp/request', {})).status).toBe(200);
    const code = await latestCode(PHONE);
    expect((await asBrowser('/otp/verify', { code })).status).toBe(200);
    expect((await asBrowser('/consent', {})).status).toBe(200);
    const fields = context.fields.map((f) => (f.type === 'initial' ? { fieldId: f.id, signatureImageBase64: pngBase64, signatureSource: 'uploaded' } : { fieldId: f.id, textValue: 'Ada Signer' }));
    expect((await asBrowser('/sign', { fields, fontLabel: 'Caveat' })).status).toBe(200);
    await settle();
    const envelope = (await call<EnvelopeBody>('GET', `/v1/envelopes/${created.body.id}`, { token })).body;
    expect(envelope.status).toBe('completed');
    const sealed = await call('GET', `/v1/envelopes/${envelope.id}/document?kind=sealed`, { token });
    const text = pdftotext(tempPdf(sealed.bytes)).replace(/\s+/g, ' ');
    const consent = envelope.auditLog?.find((e) => e.event === 'signer.consented')?.detail?.disclosureVersion;
    expect(consent).toEqual(expect.any(String));
    for (const expected of [
      `Authentication One-time code by SMS to +49 •••• ••${PHONE.slice(-2)}`,
      `Consent Electronic signature disclosure, version ${String(consent)}`,
      'Signature Typed, in the font Caveat Ada Signer',
      'Initials Uploaded (image)',
      'Sent by Erika Sender, through the application',
      'Carbon copies Carla Copy <carla.',
      'Seal Sealed by ',
      ', timestamped by ',
    ]) expect(text).toContain(expected);
    const signers = text.slice(text.indexOf('Signers (1)'), text.indexOf('Audit trail'));
    for (const action of ['Viewed', 'Code verified', 'Consented', 'Signed']) {
      expect(signers).toMatch(new RegExp(`${action} \\(UTC\\) \\S+Z IP address \\S+ User agent Mozilla/5\\.0 \\(X11; Linux x86_64\\) EvidenceBrowser/1\\.0`));
    }
    expect(text).not.toContain(PHONE.slice(3));
    expect(text).not.toContain(` ${code} `); // the one-time code, never
  }, 90_000);
});
