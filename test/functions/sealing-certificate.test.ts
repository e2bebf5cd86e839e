import { createHash, X509Certificate } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EnvelopeChange } from '#shared/envelopes/envelope.ts';
import { createEnvelope, sendEnvelope } from '#shared/envelopes/envelope.ts';
import { giveConsent, markViewed, recordSignature, requestOtp, signerOf, verifyOtp, CONSENT_DISCLOSURE } from '#shared/signing/signing.ts';
import { sealStep } from '#shared/sealing/sealing-actions.ts';
import { checkOriginal } from '#shared/envelopes/upload-actions.ts';
import { memoryDeps } from '#test/support/memory-deps.ts';
import { signerInput, testCtx } from '#test/support/domain.ts';
import { makePdf, PNG_1X1 } from '#test/support/pdfs.ts';
import { pdftotext, tempPdf } from '#test/support/validators.ts';

let deps: Awaited<ReturnType<typeof memoryDeps>>;
beforeAll(async () => { deps = await memoryDeps(); });

const PHONE = '+4915123456712';
const at = (ip: string, userAgent: string) => ({ ...testCtx(new Date()), meta: { ip, userAgent } });

async function commit(change: EnvelopeChange | null): Promise<void> {
  if (change) await deps.envelopes.commit(change);
}

/** Two documents; an SMS-code signer who types her signature, then a signer without a code who draws his; a carbon copy. */
async function signedEnvelope(): Promise<string> {
  const ctx = testCtx(new Date());
  const id = deps.ids.next();
  const documents = [];
  const pages = new Map<string, Awaited<ReturnType<typeof checkOriginal>>['pages']>();
  for (const order of [1, 2]) {
    const { document, blobs, pages: geometry } = await checkOriginal({ bytes: await makePdf({ pages: order }), filename: `Part ${String(order)}.pdf` }, { envelopeId: id, documentId: deps.ids.next(), now: ctx.now, order }, 'file');
    for (const blob of blobs) await deps.blobs.put(blob.key, blob.bytes, blob.contentType);
    documents.push(document);
    pages.set(document.id, geometry);
  }
  const created = createEnvelope({
    id, appId: 'crm-app', tenantId: 't', subject: 'Evidence', createdBy: 'Anna Sender', expiresInDays: 5, fieldOrigin: 'bottom-left',
    signers: [signerInput('ada@example.com', 1, { name: 'Ada', authMethod: 'sms_otp', phone: PHONE }), signerInput('bo@example.com', 1, { name: 'Bo', authMethod: 'none' })],
    fields: [0, 1].map((signerIndex) => ({ signerIndex, type: 'signature' as const, page: 1, x: 50, y: 50 + signerIndex * 60, w: 200, h: 40, required: true, origin: 'bottom-left' as const })),
    documents, pages, cc: [{ name: 'Carl Copy', email: 'carl@example.com' }],
  }, ctx);
  await commit(created);
  await commit(sendEnvelope(created.after, null, at('198.51.100.1', 'crm-client/1.0')).change);
  const png = new Uint8Array(PNG_1X1);
  const pngSha = createHash('sha256').update(png).digest('hex');
  await deps.blobs.put(`signatures/${id}/bo.png`, png, 'image/png');
  for (const [index, ip] of [[0, '203.0.113.10'], [1, '203.0.113.20']] as const) {
    const step = async (make: (envelope: NonNullable<Awaited<ReturnType<typeof deps.envelopes.find>>>, signerId: string) => EnvelopeChange | null) => {
      const envelope = await deps.envelopes.find(id);
      if (envelope) await commit(make(envelope, envelope.signers.at(index)?.id ?? ''));
    };
    await step((e, s) => markViewed(e, signerOf(e, s), at(ip, `Browser-${String(index)} view`)));
    if (index === 0) {
      await step((e, s) => requestOtp(e, signerOf(e, s), 'hash', 'sms', at(ip, 'Browser-0 request')));
      await step((e, s) => verifyOtp(e, signerOf(e, s), () => true, at(ip, 'Browser-0 verify')).change);
    }
    await step((e, s) => giveConsent(e, signerOf(e, s), at(ip, `Browser-${String(index)} consent`)));
    await step((e, s) => {
      const fieldId = e.fields.find((f) => f.signerId === s)?.id ?? '';
      const values = index === 0
        ? [{ fieldId, type: 'signature' as const, kind: 'typed' as const, text: 'Ada Lovelace', fontLabel: 'Dancing Script' }]
        : [{ fieldId, type: 'signature' as const, kind: 'image' as const, blobKey: `signatures/${id}/bo.png`, sha256: pngSha, width: 1, height: 1, source: 'uploaded' as const }];
      const submission = { envelopeId: id, signerId: s, submittedAt: new Date().toISOString(), fontLabel: index === 0 ? 'Dancing Script' : null, values };
      return recordSignature(e, signerOf(e, s), submission, at(ip, `Browser-${String(index)} sign`)).change;
    });
  }
  return id;
}

describe('the sealed file\'s audit certificate, from a real envelope flow', () => {
  it('carries each signer\'s authentication, consent version, adopted signature and actions, the sender, the carbon copy, the seal and the other document', async () => {
    const id = await signedEnvelope();
    const sealed = await sealStep(deps, id);
    const envelope = await deps.envelopes.find(id);
    const [first, second] = envelope?.documents ?? [];
    const file = sealed.files.find((f) => f.sourceDocumentId === second?.id);
    const bytes = await deps.blobs.get(file?.blobKey ?? '');
    const text = pdftotext(tempPdf(bytes ?? new Uint8Array())).replace(/\s+/g, ' ');
    const seal = new X509Certificate((await deps.documentSigner.certificateChain())[0] ?? new Uint8Array()).subject.split('\n').join(', ');
    for (const expected of [
      'This file Document 2 of 2: Part 2.pdf',
      `1. Part 1.pdf SHA-256 ${first?.sha256 ?? '?'}`,
      `2. Part 2.pdf (this file) SHA-256 ${second?.sha256 ?? '?'}`,
      'Sent by Anna Sender, through the application crm-app',
      'Sent from IP 198.51.100.1 Sender user agent crm-client/1.0',
      'Carbon copies Carl Copy <carl@example.com>',
      'Authentication One-time code by SMS to +49 •••• ••12',
      `Consent Electronic signature disclosure, version ${CONSENT_DISCLOSURE.version}`,
      'Signature Typed, in the font Dancing Script Ada Lovelace',
      'Authentication None (the signing link only)',
      'Signature Uploaded (image)',
      `Seal Sealed by ${seal}.`,
      `Sealed and completed (UTC) ${sealed.sealedAt}`,
    ]) expect(text).toContain(expected);
    const signers = text.slice(text.indexOf('Signers (2)'), text.indexOf('Audit trail'));
    for (const [action, ip, agent] of [
      ['Viewed', '203.0.113.10', 'Browser-0 view'], ['Code verified', '203.0.113.10', 'Browser-0 verify'], ['Consented', '203.0.113.10', 'Browser-0 consent'],
      ['Signed', '203.0.113.10', 'Browser-0 sign'], ['Viewed', '203.0.113.20', 'Browser-1 view'], ['Signed', '203.0.113.20', 'Browser-1 sign'],
    ]) expect(signers).toMatch(new RegExp(`${action ?? ''} \\(UTC\\) \\S+Z IP address ${ip ?? ''} User agent ${agent ?? ''}`));
    expect(text).not.toContain('15123456712');
    expect(text).not.toContain('5123456712');
  }, 60_000);
});
