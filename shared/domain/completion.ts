import type { AuditDraft } from './audit-chain.ts';
import { changeOf, retentionJob, type Ctx, type EnvelopeChange } from './envelope.ts';
import { startRetention } from './retention.ts';
import { InvalidState } from './errors.ts';
import type { Document, DownloadLink, Envelope, RequestMeta } from './model.ts';

export interface SealedFile {
  blobKey: string;
  sha256: string;
  pageCount: number;
  sizeBytes: number;
}

/** Sealing may start once every signer has signed and nothing else ended the envelope. */
export function assertReadyToSeal(envelope: Envelope): void {
  if (envelope.status !== 'in_progress' && envelope.status !== 'sent') throw new InvalidState(`Cannot seal: the envelope is ${envelope.status}`);
  if (!envelope.signers.every((s) => s.status === 'signed')) throw new InvalidState('Cannot seal: not every signer has signed');
}

/**
 * The sealed PDF is stored: the envelope completes in one change with its hashes, the sealed document record,
 * retention dates on both documents, the recipients' download links, envelope.sealed and envelope.completed.
 * Null when it already completed (a re-run of finalize).
 */
export function completeEnvelope(envelope: Envelope, sealed: SealedFile, links: DownloadLink[], ctx: Ctx): EnvelopeChange | null {
  if (envelope.status === 'completed') return null;
  assertReadyToSeal(envelope);
  const completedAt = ctx.now.toISOString();
  const sealedDocument: Document = {
    id: ctx.nextId(), kind: 'sealed', mimeType: 'application/pdf', sha256: sealed.sha256, pageCount: sealed.pageCount, sizeBytes: sealed.sizeBytes,
    blobKey: sealed.blobKey, createdAt: completedAt, retentionUntil: null, purgeStatus: 'active', pages: [],
  };
  const after: Envelope = startRetention({
    ...envelope, status: 'completed', completedAt, documentHashFinal: sealed.sha256, downloadLinks: links, completionNotifiedAt: null,
    documents: [...envelope.documents, sealedDocument],
  }, ctx.now);
  const retentionUntil = sealedDocument.retentionUntil ?? after.documents.at(-1)?.retentionUntil ?? null;
  const system = (event: AuditDraft['event'], detail: AuditDraft['detail']): AuditDraft => ({ event, actor: 'system', ip: null, userAgent: null, detail });
  const drafts = [
    system('envelope.sealed', { documentId: sealedDocument.id, sha256: sealed.sha256, pageCount: sealed.pageCount, sizeBytes: sealed.sizeBytes }),
    system('envelope.completed', { completedAt, retentionUntil }),
  ];
  const event = { kind: 'event' as const, id: ctx.nextId(), envelopeId: envelope.id, event: 'envelope.completed' as const, createdAt: completedAt, signerId: null };
  return changeOf(envelope, after, drafts, [event, retentionJob(after, ctx)], ctx);
}

export function markNotified(envelope: Envelope, ctx: Ctx): EnvelopeChange | null {
  if (envelope.completionNotifiedAt) return null;
  return changeOf(envelope, { ...envelope, completionNotifiedAt: ctx.now.toISOString() }, [], [], ctx);
}

/** A recorded download through the portal (spec 4.4): it stops the deletion reminders for that link. */
export function recordDownload(envelope: Envelope, link: DownloadLink, meta: RequestMeta, ctx: Ctx): EnvelopeChange {
  const now = ctx.now.toISOString();
  const downloadLinks = (envelope.downloadLinks ?? []).map((l) => (l.id === link.id && !l.downloadedAt ? { ...l, downloadedAt: now } : l));
  const actor = link.signerId ? `signer:${link.signerId}` : 'system';
  const draft: AuditDraft = { event: 'document.downloaded', actor, ip: meta.ip, userAgent: meta.userAgent, detail: { linkId: link.id, email: link.email, kind: 'sealed' } };
  return changeOf(envelope, { ...envelope, downloadLinks }, [draft], [], ctx);
}
