import { createHash } from 'node:crypto';
import { ARCHIVE_RENEWAL_DAYS, noteArchiveValidity, renewArchive } from './archive.ts';
import type { Document, Envelope } from '../kernel/model.ts';
import { purgeDocument } from '../retention/purge.ts';
import { classFor, retentionClass, RETENTION_TAG } from '../retention/retention.ts';
import { sealedKey } from '../envelopes/blob-staging.ts';
import type { SealEvidence } from '#shared/sealing/seal.ts';
import type { RevocationSource, TimestampAuthority } from '#shared/ports/services.ts';
import { withStagedBlobs } from '../envelopes/blob-actions.ts';
import { transactById, type CoreDeps, type Carriers } from '../signing/signing-context.ts';

export interface ArchiveRenewalDeps extends CoreDeps {
  blobs: Carriers['blobs'];
  /** The seal's timestamp authority and revocation source: renewal runs only where seals are B-LTA. */
  sealEvidence?: SealEvidence;
}

interface Services { timestamps: TimestampAuthority; revocation: RevocationSource }
export interface ArchiveSweepResult { checked: number; renewed: number; deleted: number }

const DAY_MS = 86_400_000;
const PAGE = 200;

/**
 * The daily archive sweep. Every sealed B-LTA file of a retained envelope whose last document timestamp's authority
 * certificate expires within ARCHIVE_RENEWAL_DAYS, before the envelope's deletion, gets a new document timestamp. A
 * renewed file is a new object, so its lifecycle rule would count from the renewal: the sweep deletes renewed files
 * itself once their envelope's deletion date has passed.
 */
export async function renewArchives(deps: ArchiveRenewalDeps): Promise<ArchiveSweepResult> {
  const result = { checked: 0, renewed: 0, deleted: 0 };
  const { timestamps, revocation, level } = deps.sealEvidence ?? {};
  if (level !== 'B-LTA' || !timestamps || !revocation) return result;
  const now = deps.clock.now();
  result.deleted = await deleteRenewedPastRetention(deps, now);
  const horizon = new Date(now.getTime() + ARCHIVE_RENEWAL_DAYS * DAY_MS);
  for (let position = `${now.toISOString()}#~`; ;) { // past every envelope deleted at `now` itself
    const page = await deps.envelopes.retainedAfter(position, PAGE);
    for (const { id } of page) {
      const envelope = await deps.envelopes.find(id);
      for (const document of envelope?.documents.filter((d) => d.kind === 'sealed' && d.purgeStatus === 'active') ?? []) {
        if (!envelope) break;
        result.checked++;
        if (await renewDocument(deps, envelope, document, horizon, { timestamps, revocation })) result.renewed++;
      }
    }
    const last = page.at(-1);
    if (!last || page.length < PAGE) break;
    position = last.position;
  }
  return result;
}

async function renewDocument(deps: ArchiveRenewalDeps, envelope: Envelope, document: Document, horizon: Date, services: Services): Promise<boolean> {
  if (document.archiveValidUntil && Date.parse(document.archiveValidUntil) > horizon.getTime()) return false; // known, not due: not read
  const bytes = await deps.blobs.get(document.blobKey);
  if (!bytes || createHash('sha256').update(bytes).digest('hex') !== document.sha256) return false; // renewed or purged meanwhile
  // The PDF and PKI code loads when a document is due, not at every cold start of the sweep.
  const { archiveTimestampOf, renewArchiveTimestamp } = await import('#shared/sealing/archive-timestamp.ts');
  const last = await archiveTimestampOf(bytes);
  if (!last) return false; // sealed below B-LTA: nothing to renew
  const deletion = envelope.deletionAt ? Date.parse(envelope.deletionAt) : Infinity;
  if (last.validUntil > horizon || last.validUntil.getTime() >= deletion) {
    await transactById(deps, envelope.id, (current, ctx) => ({ change: noteArchiveValidity(current, document.id, document.sha256, last.validUntil.toISOString(), ctx), result: null }));
    return false;
  }
  const renewed = await renewArchiveTimestamp(bytes, services);
  if (renewed.timestamp.validUntil <= last.validUntil) {
    // The authority still signs with the certificate that is running out: another timestamp would not outlast it.
    deps.logger.error('archive renewal cannot extend: the timestamp authority\'s certificate expires no later than the last timestamp\'s', {
      envelopeId: envelope.id, documentId: document.id, validUntil: last.validUntil.toISOString(), alarm: true,
    });
    return false;
  }
  const tag = { key: RETENTION_TAG, value: retentionClass(classFor(envelope.retentionDays)) };
  const done = await withStagedBlobs(deps, envelope.id, (stageId) => [{ key: sealedKey(envelope.id, stageId, document.sourceDocumentId ?? document.id), bytes: renewed.chunks, contentType: 'application/pdf' }], async (stage) => {
    const [key = ''] = stage.keys;
    await deps.blobs.retain(key, tag);
    return transactById(deps, envelope.id, (current, ctx) => ({
      change: renewArchive(current, {
        documentId: document.id, fromSha256: document.sha256, blobKey: key, stageId: stage.id,
        sha256: renewed.sha256, sizeBytes: renewed.length,
        timestampAt: renewed.timestamp.genTime.toISOString(), validUntil: renewed.timestamp.validUntil.toISOString(),
      }, ctx),
      result: null,
    }));
  }, (committed) => Boolean(committed?.change));
  return Boolean(done?.change);
}

/** Renewed files of envelopes whose deletion date has passed: deleted, and their documents marked purged. */
async function deleteRenewedPastRetention(deps: ArchiveRenewalDeps, now: Date): Promise<number> {
  let deleted = 0;
  for (const id of await deps.envelopes.retainedUntil(now, PAGE)) {
    const envelope = await deps.envelopes.find(id);
    for (const document of envelope?.documents.filter((d) => (d.archiveRenewals ?? 0) > 0 && d.purgeStatus === 'active') ?? []) {
      await deps.blobs.delete(document.blobKey);
      const done = await transactById(deps, id, (current, ctx) => ({ change: purgeDocument(current, document.id, ctx), result: null }));
      if (done?.change) deleted++;
    }
  }
  return deleted;
}
