import { sameDigest, sha256Hex, verifyDownloadToken } from '../links.ts';
import type { Config } from '../../config.ts';
import { recordDownload } from '../completion.ts';
import { Gone, Unauthorized } from '../errors.ts';
import type { Document, DownloadLink, Envelope, RequestMeta } from '../model.ts';
import { transact, type CoreDeps } from './context.ts';

export interface DownloadDeps extends CoreDeps {
  config: Pick<Config, 'linkSecret' | 'signingUrl'>;
}

interface Opened { envelope: Envelope; link: DownloadLink; sealed: Document }

/** A portal link's envelope, link and sealed document: the token's hash must be one of the envelope's links; 410 once purged. */
function opened(envelope: Envelope | undefined, claims: { linkId: string }, token: string): Opened {
  const link = envelope?.downloadLinks?.find((l) => l.id === claims.linkId);
  const sealed = envelope?.documents.find((d) => d.kind === 'sealed');
  if (!envelope || !link || !sealed || !sameDigest(link.tokenHash, sha256Hex(token))) throw new Unauthorized('This download link is not valid', {}, 'link_invalid');
  if (sealed.purgeStatus === 'purged') throw new Gone('The document was deleted at the end of its retention period', {}, 'document_purged');
  return { envelope, link, sealed };
}

async function openDownload(deps: DownloadDeps, token: string): Promise<Opened> {
  const claims = await verifyDownloadToken(deps.config.linkSecret, token, deps.clock.now());
  return opened(await deps.envelopes.find(claims.envelopeId), claims, token);
}

export async function downloadStatus(deps: DownloadDeps, token: string) {
  const { envelope, sealed } = await openDownload(deps, token);
  return {
    envelopeId: envelope.id, available: true, subject: envelope.subject, completedAt: envelope.completedAt,
    sha256: sealed.sha256, pageCount: sealed.pageCount, sizeBytes: sealed.sizeBytes, retentionUntil: sealed.retentionUntil,
  };
}

/** The sealed PDF; the download is recorded in the audit chain (and stops the deletion reminders) once the bytes are in hand. */
export async function downloadSealed(deps: DownloadDeps, token: string, meta: RequestMeta) {
  const claims = await verifyDownloadToken(deps.config.linkSecret, token, deps.clock.now());
  const { sealed } = opened(await deps.envelopes.find(claims.envelopeId), claims, token);
  const bytes = await deps.blobs.get(sealed.blobKey);
  if (!bytes) throw new Gone('The document is no longer stored', {}, 'document_purged');
  const { envelope } = await transact(deps, meta, () => deps.envelopes.find(claims.envelopeId).then((e) => opened(e, claims, token).envelope), (latest, ctx) =>
    ({ change: recordDownload(latest, opened(latest, claims, token).link, meta, ctx), result: null }));
  return { envelope, sealed, bytes };
}
