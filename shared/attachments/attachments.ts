/**
 * Signer attachments (docs/attachments.md): a file a signer adds for one of their attachment fields, one per field.
 * Adding a second file for a field replaces the first; a signer may remove theirs until they sign, and the sign
 * request names the ones it keeps. Pure transitions: each returns the change to commit with its audit entry, and a
 * blobs.delete job for a file no record names any more.
 */
import type { AuditDraft } from '../kernel/audit-chain.ts';
import { changeOf, type Ctx, type EnvelopeChange } from '../kernel/change.ts';
import { NotFound, ValidationError } from '../kernel/errors.ts';
import type { Attachment, AttachmentFormat, Envelope, Field, Signer } from '../kernel/model.ts';
import type { JobOutboxItem } from '../notices/outbox.ts';
import { EXTENSIONS } from './attachment-formats.ts';

/** Where a presigned POST puts a signer's file until its complete call checks it (swept like a document's upload). */
export const attachmentUploadKey = (envelopeId: string, uploadId: string) => `uploads/${envelopeId}/${uploadId}.attachment`;
/** The checked copy, in the key space of the stage that wrote it (a racing complete never overwrites the winner's). */
export const attachmentKey = (envelopeId: string, stageId: string, attachmentId: string, format: AttachmentFormat) =>
  `attachments/${envelopeId}/${stageId}/${attachmentId}.${EXTENSIONS[format]}`;
/** The envelope an attachment key belongs to. */
export const envelopeOfAttachmentKey = (key: string): string | null => /^attachments\/([0-9a-f-]{36})\/[0-9a-f-]{36}\/[0-9a-f-]{36}\.(?:pdf|png|jpg)$/.exec(key)?.[1] ?? null;

export const attachmentsOf = (envelope: Pick<Envelope, 'attachments'>): Attachment[] => envelope.attachments ?? [];

/** The signer's attachment field `fieldId` names; 400 for any other field. */
export function attachmentFieldOf(envelope: Envelope, signer: Signer, fieldId: string): Field & { accept: AttachmentFormat[]; maxBytes: number } {
  const field = envelope.fields.find((f) => f.id === fieldId && f.signerId === signer.id);
  if (field?.type !== 'attachment' || !field.accept || !field.maxBytes) throw ValidationError.at('fieldId', 'is not one of your attachment fields');
  return { ...field, accept: field.accept, maxBytes: field.maxBytes };
}

const signerDraft = (signer: Signer, ctx: Ctx, event: AuditDraft['event'], detail: AuditDraft['detail']): AuditDraft => ({
  event, actor: `signer:${signer.id}`, ip: ctx.meta.ip, userAgent: ctx.meta.userAgent, detail,
});

/** Files a committed change stopped naming: deleted by the jobs worker once the change stands. */
export function deleteJob(envelope: Envelope, keys: readonly string[], ctx: Ctx): JobOutboxItem[] {
  if (keys.length === 0) return [];
  return [{ kind: 'job', id: ctx.nextId(), envelopeId: envelope.id, createdAt: ctx.now.toISOString(), job: { type: 'blobs.delete', envelopeId: envelope.id, keys: [...keys] } }];
}

/** Adds the signer's checked file for its field, replacing the one they added before for that field. */
export function addAttachment(envelope: Envelope, signer: Signer, attachment: Attachment, ctx: Ctx): EnvelopeChange {
  const replaced = attachmentsOf(envelope).find((a) => a.fieldId === attachment.fieldId && a.signerId === signer.id);
  const attachments = [...attachmentsOf(envelope).filter((a) => a !== replaced), attachment];
  const { id, fieldId, name, format, sizeBytes, sha256 } = attachment;
  const draft = signerDraft(signer, ctx, 'signer.attachment_added', { attachmentId: id, fieldId, name, format, sizeBytes, sha256, replaces: replaced?.id ?? null });
  return changeOf(envelope, { ...envelope, attachments }, [draft], deleteJob(envelope, replaced ? [replaced.blobKey] : [], ctx), ctx);
}

/** The signer takes back a file before signing. */
export function removeAttachment(envelope: Envelope, signer: Signer, attachmentId: string, ctx: Ctx): EnvelopeChange {
  const removed = attachmentsOf(envelope).find((a) => a.id === attachmentId && a.signerId === signer.id);
  if (!removed) throw new NotFound('No such attachment of yours');
  const attachments = attachmentsOf(envelope).filter((a) => a !== removed);
  const draft = signerDraft(signer, ctx, 'signer.attachment_removed', { attachmentId, fieldId: removed.fieldId, name: removed.name, sha256: removed.sha256 });
  return changeOf(envelope, { ...envelope, attachments }, [draft], deleteJob(envelope, [removed.blobKey], ctx), ctx);
}

/**
 * At signing: the signer's attachments the submission names stay (each must still be the one it names: a replace
 * that won a race is refused rather than sealed unseen); their others go, with their files.
 */
export function keepNamedAttachments(envelope: Envelope, signer: Signer, named: readonly { attachmentId: string; sha256: string }[]): { envelope: Envelope; dropped: string[] } {
  const mine = attachmentsOf(envelope).filter((a) => a.signerId === signer.id);
  for (const value of named) {
    if (!mine.some((a) => a.id === value.attachmentId && a.sha256 === value.sha256)) {
      throw new ValidationError('An attachment the request names was replaced or removed meanwhile', { fields: [`attachment ${value.attachmentId} is no longer yours to name`] });
    }
  }
  const dropped = mine.filter((a) => !named.some((n) => n.attachmentId === a.id));
  return { envelope: { ...envelope, attachments: attachmentsOf(envelope).filter((a) => !dropped.includes(a)) }, dropped: dropped.map((a) => a.blobKey) };
}

/** A stored attachment is gone (its lifecycle rule expired it): the record stays, marked purged. */
export function purgeAttachment(envelope: Envelope, attachmentId: string, ctx: Ctx): EnvelopeChange | null {
  const attachment = attachmentsOf(envelope).find((a) => a.id === attachmentId);
  if (attachment?.purgeStatus !== 'active') return null;
  const attachments = attachmentsOf(envelope).map((a) => (a === attachment ? { ...a, purgeStatus: 'purged' as const, purgedAt: ctx.now.toISOString() } : a));
  const draft: AuditDraft = {
    event: 'document.purged', actor: 'system', ip: null, userAgent: null,
    detail: { attachmentId, kind: 'attachment', sha256: attachment.sha256, retentionUntil: attachment.retentionUntil },
  };
  return changeOf(envelope, { ...envelope, attachments }, [draft], [], ctx);
}

/** The attachments the signers' submissions name, with their field and signer: what the seal embeds. */
export function submittedAttachments(envelope: Envelope, submissions: readonly { signerId: string; values: readonly { kind: string; fieldId: string }[] }[]): { attachment: Attachment; field: Field; signer: Signer }[] {
  return submissions.flatMap((submission) => submission.values.flatMap((value) => {
    if (value.kind !== 'attachment') return [];
    const attachment = attachmentsOf(envelope).find((a) => a.fieldId === value.fieldId && a.signerId === submission.signerId);
    const field = envelope.fields.find((f) => f.id === value.fieldId);
    const signer = envelope.signers.find((s) => s.id === submission.signerId);
    return attachment && field && signer ? [{ attachment, field, signer }] : [];
  }));
}
