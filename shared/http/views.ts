import type { AuditEntry } from '#domain/audit-chain.ts';
import type { Document, Envelope, Field, Signer } from '#domain/model.ts';
import type { Delivery, Webhook } from '#domain/webhooks.ts';

export function signerView(signer: Signer, signingUrl?: string | null) {
  return {
    id: signer.id,
    name: signer.name,
    email: signer.email,
    phone: signer.phone,
    routingOrder: signer.routingOrder,
    status: signer.status,
    authMethod: signer.authMethod,
    signedAt: signer.signedAt,
    declinedAt: signer.declinedAt,
    ...(signingUrl === undefined ? {} : { signingUrl }),
  };
}

export function fieldView(field: Field) {
  const { id, documentId, signerId, type, page, x, y, w, h, required, origin } = field;
  return { id, documentId, signerId, type, page, x, y, w, h, required, origin };
}

/** Both retention spellings, equal values (DECISIONS 3). */
export function documentView(envelopeId: string, document: Document) {
  return {
    id: document.id,
    envelopeId,
    kind: document.kind,
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

export function auditView(entry: AuditEntry) {
  const { id, envelopeId, seq, event, timestamp, actor, ip, userAgent, detail, prevHash, hash } = entry;
  return { id, envelopeId, seq, event, timestamp, actor, ip, userAgent, detail, prevHash, hash };
}

export interface EnvelopeViewOptions {
  auditLog?: readonly AuditEntry[];
  /** Signing URLs by signer id, for the send response (DECISIONS 5). */
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
    signers: envelope.signers.map((s) => signerView(s, signingUrls ? (signingUrls.get(s.id) ?? null) : undefined)),
    fields: envelope.fields.map(fieldView),
    documents: envelope.documents.map((d) => documentView(envelope.id, d)),
    ...(auditLog ? { auditLog: auditLog.map(auditView), auditChainHead: envelope.auditHead.hash } : {}),
  };
}

/** The signing context (spec 2.7) with only this signer's fields, plus what the signing page needs. */
export function signingContextView(envelope: Envelope, signer: Signer, disclosure: { version: string; text: string }) {
  const document = envelope.documents.find((d) => d.kind === 'original');
  return {
    envelopeId: envelope.id,
    signerId: signer.id,
    signerName: signer.name,
    signerEmail: signer.email,
    fields: envelope.fields.filter((f) => f.signerId === signer.id).map(({ id, type, page, x, y, w, h, required, origin }) => ({ id, type, page, x, y, w, h, required, origin })),
    requiresOtpVerification: signer.authMethod !== 'none',
    otpVerified: signer.otpVerifiedAt !== null,
    otpChannel: signer.authMethod === 'sms_otp' && signer.phone ? 'sms' : signer.authMethod === 'none' ? null : 'email',
    consentGiven: signer.consentedAt !== null,
    consentDisclosure: disclosure,
    savedSignatureB64: null,
    savedSignatureFontLabel: null,
    subject: envelope.subject,
    message: envelope.message,
    expiresAt: envelope.expiresAt,
    signerStatus: signer.status,
    document: document ? { id: document.id, pageCount: document.pageCount, pages: document.pages } : null,
  };
}

/** A webhook as returned: never its secret (spec 2.9). */
export function webhookView(webhook: Webhook) {
  const { id, url, events, active, createdAt, retrySchedule } = webhook;
  return { id, url, events, active, createdAt, retrySchedule, signedWith: webhook.secretSealed ? 'secret' : 'client_secret' };
}

export function deliveryView(delivery: Delivery) {
  const { id, webhookId, eventId, event, envelopeId, status, attempts, lastStatusCode, lastError, lastResponse, createdAt, lastAttemptAt, nextAttemptAt, deliveredAt } = delivery;
  return { id, webhookId, eventId, event, envelopeId, status, attempts, lastStatusCode, lastError, lastResponse, createdAt, lastAttemptAt, nextAttemptAt, deliveredAt };
}
