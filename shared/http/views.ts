import type { AuditEntry } from '#domain/audit-chain.ts';
import { DEFAULT_LOCALE } from '#shared/i18n/locales.ts';
import { documentName, originals, type Document, type DocumentPages, type Envelope, type Field, type Signer } from '#domain/model.ts';
import { pagesOf } from '#domain/pages.ts';
import type { Delivery, Webhook } from '#domain/webhooks.ts';
import type { CompletedValue } from '#domain/use-cases/signing.ts';

export function signerView(signer: Signer, signingUrl?: string | null) {
  return {
    id: signer.id,
    name: signer.name,
    email: signer.email,
    phone: signer.phone,
    routingOrder: signer.routingOrder,
    status: signer.status,
    authMethod: signer.authMethod,
    locale: signer.locale ?? DEFAULT_LOCALE,
    signedAt: signer.signedAt,
    declinedAt: signer.declinedAt,
    embedded: signer.embedded ?? false,
    ...(signingUrl === undefined ? {} : { signingUrl }),
  };
}

export function fieldView(field: Field) {
  const { id, documentId, signerId, type, page, x, y, w, h, required, origin } = field;
  return { id, documentId, signerId, type, page, x, y, w, h, required, origin, label: field.label ?? null, value: field.value ?? null, readOnly: field.readOnly ?? false };
}

/** Both retention spellings, equal values (decision 4). */
export function documentView(envelopeId: string, document: Document) {
  return {
    id: document.id,
    envelopeId,
    kind: document.kind,
    name: documentName(document),
    order: document.order ?? 1,
    sourceDocumentId: document.kind === 'sealed' ? (document.sourceDocumentId ?? null) : null,
    mimeType: document.mimeType,
    sha256: document.sha256,
    pageCount: document.pageCount,
    sizeBytes: document.sizeBytes,
    createdAt: document.createdAt,
    retentionUntil: document.retentionUntil,
    purgeStatus: document.purgeStatus,
    retention_until: document.retentionUntil,
    purge_status: document.purgeStatus,
  };
}

/** The answer to an upload, with the document's name and place (decision 9). */
export function documentUploadView(document: Document) {
  return { documentId: document.id, name: documentName(document), order: document.order ?? 1, sha256: document.sha256, pageCount: document.pageCount, sizeBytes: document.sizeBytes };
}

export function auditView(entry: AuditEntry) {
  const { id, envelopeId, seq, event, timestamp, actor, ip, userAgent, detail, prevHash, hash } = entry;
  return { id, envelopeId, seq, event, timestamp, actor, ip, userAgent, detail, prevHash, hash };
}

export interface EnvelopeViewOptions {
  auditLog?: readonly AuditEntry[];
  /** Signing URLs by signer id, for the send response (decision 10). */
  signingUrls?: ReadonlyMap<string, string | null>;
}

export function envelopeView(envelope: Envelope, options: EnvelopeViewOptions = {}) {
  const { signingUrls, auditLog } = options;
  return {
    id: envelope.id,
    tenantId: envelope.tenantId,
    status: envelope.status,
    createdBy: envelope.createdBy,
    subject: envelope.subject,
    documentHashOriginal: envelope.documentHashOriginal,
    documentHashFinal: envelope.documentHashFinal,
    expiresAt: envelope.expiresAt,
    sentAt: envelope.sentAt,
    completedAt: envelope.completedAt,
    voidedAt: envelope.voidedAt,
    createdAt: envelope.createdAt,
    fieldOrigin: envelope.fieldOrigin,
    reminders: envelope.reminders ?? null,
    cc: envelope.cc ?? [],
    signers: envelope.signers.map((s) => signerView(s, signingUrls ? (signingUrls.get(s.id) ?? null) : undefined)),
    fields: envelope.fields.map(fieldView),
    documents: envelope.documents.map((d) => documentView(envelope.id, d)),
    ...(envelope.templateId ? { templateId: envelope.templateId } : {}),
    sealing: envelope.sealing ? { rounds: envelope.sealing.rounds, startedAt: envelope.sealing.startedAt, nextCheckAt: envelope.sealing.nextCheckAt, lastError: envelope.sealing.lastError } : null,
    ...(auditLog ? { auditLog: auditLog.map(auditView), auditChainHead: envelope.auditHead.hash } : {}),
  };
}

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
  const textValue = value.kind === 'text' || value.kind === 'typed' ? value.text : value.kind === 'date' ? value.date : value.kind === 'checkbox' ? String(value.checked) : null;
  return {
    id: field.id, documentId: field.documentId, type: field.type, page: field.page, x: field.x, y: field.y, w: field.w, h: field.h, origin: field.origin,
    label: field.label ?? null, signerId: signer.id, signerName: signer.name, textValue,
    imageDataUrl: png ? `data:image/png;base64,${Buffer.from(png).toString('base64')}` : null,
    fontLabel: value.kind === 'typed' ? value.fontLabel : null,
  };
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
    fields: envelope.fields.filter((f) => f.signerId === signer.id).map(({ id, documentId, type, page, x, y, w, h, required, origin, label, value, readOnly }) => ({
      id, documentId: documentId ?? first?.id ?? null, type, page, x, y, w, h, required, origin, label: label ?? null, value: value ?? null, readOnly: readOnly ?? false,
    })),
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
    completedFields: [...completedFields],
  };
}

/** A webhook as returned: never its secret (decision 24). */
export function webhookView(webhook: Webhook) {
  const { id, url, events, active, createdAt, retrySchedule } = webhook;
  return { id, url, events, active, createdAt, retrySchedule, signedWith: webhook.secretSealed ? 'secret' as const : 'client_secret' as const };
}

export function deliveryView(delivery: Delivery) {
  const { id, webhookId, eventId, event, envelopeId, status, attempts, lastStatusCode, lastError, lastResponse, createdAt, lastAttemptAt, nextAttemptAt, deliveredAt } = delivery;
  return { id, webhookId, eventId, event, envelopeId, status, attempts, lastStatusCode, lastError, lastResponse, createdAt, lastAttemptAt, nextAttemptAt, deliveredAt };
}
