import type { Envelope } from '../kernel/model.ts';
import type { Submission } from '../signing/submission.ts';
import { storedKeys } from '../envelopes/page-geometry.ts';
import { purgeDocument, recordReminders } from './purge.ts';
import { classFor, retentionClass, RETENTION_TAG } from './retention.ts';
import { envelopeOfKey } from '../envelopes/blob-staging.ts';
import { envelopeOfAttachmentKey, purgeAttachment } from '../attachments/attachments.ts';
import { transactById, type CoreDeps, type Carriers } from '../signing/signing-context.ts';

export type RetentionDeps = CoreDeps;

/** The retention.tag job: every stored blob of an ended envelope gets its class tag (and restarts its age). */
export async function tagRetention(deps: RetentionDeps & Pick<Carriers, 'blobs'>, envelopeId: string): Promise<number> {
  const envelope = await deps.envelopes.find(envelopeId);
  return envelope ? tagEnvelope(deps, envelope) : 0;
}

/**
 * retention.tag on the envelope in hand: the committing function's own (InlineJobs), after the commit that ended it;
 * with the submissions too when its read brought them (they no longer change once everyone signed).
 */
export async function tagEnvelope(deps: RetentionDeps & Pick<Carriers, 'blobs'>, envelope: Envelope, submissions?: readonly Submission[]): Promise<number> {
  if (!envelope.deletionAt) return 0;
  const tag = { key: RETENTION_TAG, value: retentionClass(classFor(envelope.retentionDays)) };
  const keys = await retainedKeys(deps.envelopes, envelope, submissions);
  for (const key of keys) await deps.blobs.retain(key, tag);
  return keys.length;
}

/**
 * The blobs of an envelope that carry its retention tag: signature images and signers' attachments first, then each stored document with its
 * text index and page geometry. Tagged in this order, they expire in it too, so a document is never gone while an image is left.
 */
export async function retainedKeys(envelopes: Pick<RetentionDeps['envelopes'], 'submissions'>, envelope: Envelope, known?: readonly Submission[]): Promise<string[]> {
  const submissions = known ?? await envelopes.submissions(envelope.id);
  const images = submissions.flatMap((s) => s.values.flatMap((v) => (v.kind === 'image' ? [v.blobKey] : [])));
  const attached = (envelope.attachments ?? []).filter((a) => a.purgeStatus === 'active').map((a) => a.blobKey);
  // a document's PDF last: its removal is what marks the document purged
  const stored = envelope.documents.filter((d) => d.purgeStatus === 'active').flatMap((d) => [...storedKeys(d).filter((key) => key !== d.blobKey), d.blobKey]);
  return [...images, ...attached, ...stored];
}

/** An object was deleted (the lifecycle rule, on AWS an S3 event): its document is marked purged in the chain. */
export async function markObjectRemoved(deps: RetentionDeps, key: string): Promise<boolean> {
  const envelopeId = envelopeOfKey(key) ?? envelopeOfAttachmentKey(key);
  if (!envelopeId) return false;
  const done = await transactById(deps, envelopeId, (envelope, ctx) => {
    const document = envelope.documents.find((d) => d.blobKey === key);
    const attachment = envelope.attachments?.find((a) => a.blobKey === key);
    return { change: document ? purgeDocument(envelope, document.id, ctx) : attachment ? purgeAttachment(envelope, attachment.id, ctx) : null, result: null };
  });
  return Boolean(done?.change);
}

/** The daily reminder job: 20, 10 and 1 day before deletion, to recipients who have not downloaded; never twice. */
export async function sendDeletionReminders(deps: RetentionDeps, limit = 500): Promise<number> {
  const horizon = new Date(deps.clock.now().getTime() + 21 * 86_400_000);
  let sent = 0;
  for (const id of await deps.envelopes.retainedUntil(horizon, limit)) {
    const done = await transactById(deps, id, (envelope, ctx) => ({ change: recordReminders(envelope, ctx), result: null }));
    sent += done?.change?.outbox.length ?? 0;
  }
  return sent;
}
