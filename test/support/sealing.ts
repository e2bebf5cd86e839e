import { createEnvelope, sendEnvelope } from '#shared/envelopes/envelope.ts';
import { recordSignature, signerOf } from '#shared/signing/signing.ts';
import { checkOriginal } from '#shared/envelopes/upload-actions.ts';
import type { Deps } from '#shared/deps.ts';
import { signerInput, testCtx } from './domain.ts';
import { makePdf } from './pdfs.ts';

/** An envelope whose only signer has signed: ready for the seal workflow. */
export async function fullySigned(deps: Deps): Promise<string> {
  const ctx = testCtx(new Date());
  const id = deps.ids.next();
  const { document, blobs, pages } = await checkOriginal({ bytes: await makePdf({ pages: 1 }), filename: null }, { envelopeId: id, documentId: deps.ids.next(), now: ctx.now, order: 1 }, 'file');
  for (const blob of blobs) await deps.blobs.put(blob.key, blob.bytes, blob.contentType);
  const created = createEnvelope({
    id, appId: 'app', tenantId: 't', subject: 'Seal me', createdBy: null, expiresInDays: 5, fieldOrigin: 'bottom-left', signers: [signerInput('s@example.com', 1)],
    fields: [{ signerIndex: 0, type: 'text', page: 1, x: 50, y: 50, w: 200, h: 20, required: true, origin: 'bottom-left' }], documents: [document],
    pages: new Map([[document.id, pages]]),
  }, ctx);
  await deps.envelopes.commit(created);
  const sent = sendEnvelope(created.after, null, ctx).change;
  await deps.envelopes.commit(sent);
  const signer = signerOf(sent.after, sent.after.signers[0]?.id ?? '');
  const fieldId = sent.after.fields[0]?.id ?? '';
  const values = [{ fieldId, type: 'text' as const, kind: 'text' as const, text: 'Agreed' }];
  await deps.envelopes.commit(recordSignature(sent.after, signer, { envelopeId: id, signerId: signer.id, submittedAt: ctx.now.toISOString(), fontLabel: null, values }, ctx).change);
  return id;
}

