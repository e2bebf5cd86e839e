import { attachmentFieldView } from '../attachments/attachment-views.ts';
import type { AuditEntry } from '#shared/kernel/audit-chain.ts';
import { DEFAULT_LOCALE } from '#shared/i18n/locales.ts';
import { documentName, type Document, type Envelope, type Field, type Signer } from '#shared/kernel/model.ts';

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
  return {
    id, documentId, signerId, type, page, x, y, w, h, required, origin, label: field.label ?? null, value: field.value ?? null, readOnly: field.readOnly ?? false,
    showIf: field.showIf ?? null, validation: field.validation ?? null, ...attachmentFieldView(field),
  };
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
    sender: envelope.sender ? { name: envelope.sender.name, email: envelope.sender.email } : null,
    signers: envelope.signers.map((s) => signerView(s, signingUrls ? (signingUrls.get(s.id) ?? null) : undefined)),
    fields: envelope.fields.map(fieldView),
    allowReassign: envelope.allowReassign ?? false,
    documents: envelope.documents.map((d) => documentView(envelope.id, d)),
    ...(envelope.templateId ? { templateId: envelope.templateId } : {}),
    sealing: envelope.sealing ? { rounds: envelope.sealing.rounds, startedAt: envelope.sealing.startedAt, nextCheckAt: envelope.sealing.nextCheckAt, lastError: envelope.sealing.lastError } : null,
    ...(auditLog ? { auditLog: auditLog.map(auditView), auditChainHead: envelope.auditHead.hash } : {}),
  };
}
