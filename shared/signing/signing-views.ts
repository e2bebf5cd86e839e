import { signerAttachmentView } from '#shared/attachments/attachment-views.ts';
import { DEFAULT_LOCALE } from '#shared/i18n/locales.ts';
import { documentName, originals, type DocumentPages, type Envelope, type Field, type Signer } from '#shared/kernel/model.ts';
import { pagesOf } from '#shared/envelopes/page-geometry.ts';
import type { CompletedValue } from '#shared/signing/signing-actions.ts';
import { pageBrandingView } from '#shared/console/branding-views.ts';

/** What another signer entered, shown read-only in place to later signers (decision 17). */
export interface CompletedFieldView {
  id: string;
  documentId: string | null;
  type: Field['type'];
  page: number;
  x: number;
  y: number;
  w: number;
  h: number;
  origin: Field['origin'];
  label: string | null;
  signerId: string;
  signerName: string;
  textValue: string | null;
  imageDataUrl: string | null;
  fontLabel: string | null;
}

/** Another signer's value as later signers see it: text for text, dates and ticks, the PNG for a drawn signature. */
export function completedFieldView({ field, signer, value, png }: CompletedValue): CompletedFieldView {
  const textValue = value.kind === 'text' || value.kind === 'typed' ? value.text : value.kind === 'date' ? value.date : value.kind === 'checkbox' ? String(value.checked) : value.kind === 'attachment' ? value.name : null;
  return {
    id: field.id, documentId: field.documentId, type: field.type, page: field.page, x: field.x, y: field.y, w: field.w, h: field.h, origin: field.origin,
    label: field.label ?? null, signerId: signer.id, signerName: signer.name, textValue,
    imageDataUrl: png ? `data:image/png;base64,${Buffer.from(png).toString('base64')}` : null,
    fontLabel: value.kind === 'typed' ? value.fontLabel : null,
  };
}

/**
 * The values of other signers' fields this signer's conditions name (by label), as conditions read them: what an
 * earlier signer entered, else the prefill, else ''. Only those labels: the page needs no other field of theirs.
 */
function conditionValues(envelope: Envelope, signer: Signer, completed: readonly CompletedFieldView[]): Record<string, string> {
  const labels = new Set(envelope.fields.filter((f) => f.signerId === signer.id && f.showIf).map((f) => f.showIf?.label ?? ''));
  const values: Record<string, string> = {};
  const seen = new Set<string>();
  // Conditions chain: a named field of another signer may itself depend on a further one
  for (let pending = [...labels]; pending.length > 0;) {
    const label = pending.pop() ?? '';
    if (seen.has(label)) continue;
    seen.add(label);
    const target = envelope.fields.find((f) => f.label === label);
    if (!target || target.signerId === signer.id) continue;
    const done = completed.find((c) => c.id === target.id);
    values[label] = done ? (target.type === 'signature' || target.type === 'initial' ? 'signed' : done.textValue ?? '') : target.value ?? '';
    if (target.showIf) pending.push(target.showIf.label);
  }
  return values;
}

/** The signing context (what GET /v1/signing/{token} answers) with only this signer's fields, plus what the signing page needs (the originals' `pages`). */
export function signingContextView(envelope: Envelope, signer: Signer, disclosure: { version: string; text: string }, pages: DocumentPages, completedFields: readonly CompletedFieldView[] = []) {
  const documents = originals(envelope);
  const first = documents[0];
  return {
    envelopeId: envelope.id,
    signerId: signer.id,
    signerName: signer.name,
    signerEmail: signer.email,
    locale: signer.locale ?? DEFAULT_LOCALE,
    fields: envelope.fields.filter((f) => f.signerId === signer.id).map(({ id, documentId, type, page, x, y, w, h, required, origin, label, value, readOnly, showIf, validation, accept, maxBytes }) => ({
      id, documentId: documentId ?? first?.id ?? null, type, page, x, y, w, h, required, origin, label: label ?? null, value: value ?? null, readOnly: readOnly ?? false,
      showIf: showIf ?? null, validation: validation ?? null, accept: accept ? [...accept] : null, maxBytes: accept ? maxBytes ?? null : null,
    })),
    conditionValues: conditionValues(envelope, signer, completedFields),
    allowReassign: envelope.allowReassign ?? false,
    requiresOtpVerification: signer.authMethod !== 'none',
    otpVerified: signer.otpVerifiedAt !== null,
    otpChannel: signer.authMethod === 'sms_otp' && signer.phone ? 'sms' as const : signer.authMethod === 'none' ? null : 'email' as const,
    consentGiven: signer.consentedAt !== null,
    consentDisclosure: disclosure,
    savedSignatureB64: null,
    savedSignatureFontLabel: null,
    subject: envelope.subject,
    message: envelope.message,
    expiresAt: envelope.expiresAt,
    signerStatus: signer.status,
    document: first ? { id: first.id, pageCount: first.pageCount, pages: [...pagesOf(pages, first)] } : null,
    documents: documents.map((d) => ({ id: d.id, name: documentName(d), pageCount: d.pageCount, pages: [...pagesOf(pages, d)] })),
    branding: pageBrandingView(envelope),
    completedFields: [...completedFields],
    attachments: (envelope.attachments ?? []).filter((a) => a.signerId === signer.id).map(signerAttachmentView),
  };
}
