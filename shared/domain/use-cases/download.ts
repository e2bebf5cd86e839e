import { sameDigest, sha256Hex, verifyDownloadToken } from '../../auth/signing-links.ts';
import type { Config } from '../../config.ts';
import { recordDownload } from '../completion.ts';
import { ConcurrentModification, Gone, Unauthorized } from '../errors.ts';
import type { Document, DownloadLink, Envelope, RequestMeta } from '../model.ts';
import type { BlobStore } from '#ports/services.ts';
import { contextOf, type CoreDeps } from './context.ts';

export interface DownloadDeps extends CoreDeps {
  config: Pick<Config, 'linkSecret' | 'signingUrl'>;
  blobs: BlobStore;
}

interface Opened { envelope: Envelope; link: DownloadLink; sealed: Document }

/** Resolves a portal link: a valid token whose hash is one of the envelope's links; 410 once the PDF is purged. */
async function openDownload(deps: DownloadDeps, token: string): Promise<Opened> {
  const claims = await verifyDownloadToken(deps.config.linkSecret, token, deps.clock.now());
  const envelope = await deps.envelopes.find(claims.envelopeId);
  const link = envelope?.downloadLinks?.find((l) => l.id === claims.linkId);
  const sealed = envelope?.documents.find((d) => d.kind === 'sealed');
  if (!envelope || !link || !sealed || !sameDigest(link.tokenHash, sha256Hex(token))) throw new Unauthorized('This download link is not valid', {}, 'link_invalid');
  if (sealed.purgeStatus === 'purged') throw new Gone('The document was deleted at the end of its retention period', {}, 'document_purged');
  return { envelope, link, sealed };
}

export async function downloadStatus(deps: DownloadDeps, token: string) {
  const { envelope, sealed } = await openDownload(deps, token);
  return {
    envelopeId: envelope.id, available: true, subject: envelope.subject, completedAt: envelope.completedAt,
    sha256: sealed.sha256, pageCount: sealed.pageCount, sizeBytes: sealed.sizeBytes, retentionUntil: sealed.retentionUntil,
  };
}

/** The sealed PDF; the download is recorded in the audit chain (and stops the deletion reminders). */
export async function downloadSealed(deps: DownloadDeps, token: string, meta: RequestMeta) {
  for (let attempt = 1; ; attempt++) {
    const { envelope, link, sealed } = await openDownload(deps, token);
    const bytes = await deps.blobs.get(sealed.blobKey);
    if (!bytes) throw new Gone('The document is no longer stored');
    try {
      await deps.envelopes.commit(recordDownload(envelope, link, meta, contextOf(deps, meta)));
      return { envelope, sealed, bytes };
    } catch (error) {
      if (!(error instanceof ConcurrentModification) || attempt >= 10) throw error;
    }
  }
}
