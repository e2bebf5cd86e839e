/**
 * Archive renewal of sealed documents (PAdES B-LTA): a new revision with a fresh document timestamp replaces the
 * stored file while the document is retained. The envelope is completed by then; its audit chain still takes entries
 * after completion (downloads, reminders, purges), and a renewal is one more: the file's hash changes, so the chain
 * must say why.
 */
import type { AuditDraft } from '../kernel/audit-chain.ts';
import { changeOf, type Ctx, type EnvelopeChange } from '../envelopes/envelope.ts';
import type { Envelope } from '../kernel/model.ts';
import type { JobOutboxItem } from '../notices/outbox.ts';

/** A renewal is due once the last timestamp's authority certificate has this many days left. */
export const ARCHIVE_RENEWAL_DAYS = 90;

export interface ArchiveRenewal {
  documentId: string;
  /** The file the renewal was made from: the change applies only while the record still names it. */
  fromSha256: string;
  blobKey: string;
  sha256: string;
  sizeBytes: number;
  stageId: string;
  /** The new document timestamp's time, and when its authority's certificate expires. */
  timestampAt: string;
  validUntil: string;
}

/**
 * The sealed document becomes its renewed revision, releasing the stage that holds it; the file it replaces is deleted
 * after the commit (a job). Null when the record no longer names the file renewed (another sweep renewed it first, or
 * it was purged): that renewal is discarded.
 */
export function renewArchive(envelope: Envelope, renewal: ArchiveRenewal, ctx: Ctx): EnvelopeChange | null {
  const document = envelope.documents.find((d) => d.id === renewal.documentId);
  if (document?.kind !== 'sealed' || document.purgeStatus !== 'active' || document.sha256 !== renewal.fromSha256) return null;
  const documents = envelope.documents.map((d) => (d.id === document.id
    ? { ...d, blobKey: renewal.blobKey, sha256: renewal.sha256, sizeBytes: renewal.sizeBytes, archiveRenewals: (d.archiveRenewals ?? 0) + 1, archiveValidUntil: renewal.validUntil }
    : d));
  const draft: AuditDraft = {
    event: 'document.archive_renewed', actor: 'system', ip: null, userAgent: null,
    detail: { documentId: document.id, previousSha256: document.sha256, sha256: renewal.sha256, timestampAt: renewal.timestampAt, validUntil: renewal.validUntil },
  };
  const cleanup: JobOutboxItem = {
    kind: 'job', id: ctx.nextId(), envelopeId: envelope.id, createdAt: ctx.now.toISOString(), job: { type: 'blobs.delete', envelopeId: envelope.id, keys: [document.blobKey] },
  };
  return { ...changeOf(envelope, { ...envelope, documents }, [draft], [cleanup], ctx), releases: [renewal.stageId] };
}

/**
 * Notes when a sealed file's last timestamp authority certificate expires, so later sweeps skip the file without
 * reading it until a renewal is near. Null when the record already says so or no longer names that file.
 */
export function noteArchiveValidity(envelope: Envelope, documentId: string, sha256: string, validUntil: string, ctx: Ctx): EnvelopeChange | null {
  const document = envelope.documents.find((d) => d.id === documentId);
  if (document?.sha256 !== sha256 || document.archiveValidUntil === validUntil) return null;
  const documents = envelope.documents.map((d) => (d.id === documentId ? { ...d, archiveValidUntil: validUntil } : d));
  return changeOf(envelope, { ...envelope, documents }, [], [], ctx);
}
