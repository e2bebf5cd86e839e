import { sameDigest, sha256Hex, verifyDownloadToken } from '../kernel/tokens.ts';
import { pageBrandingView } from '../console/branding-views.ts';
import type { Config } from '../config.ts';
import { recordDownload } from './completion.ts';
import { Unauthorized } from '../kernel/errors.ts';
import { localeOf } from '../i18n/locales.ts';
import { documentName, originals, sealedOf, type Document, type DownloadLink, type Envelope, type RequestMeta } from '../kernel/model.ts';
import { transact, type CoreDeps } from '../signing/signing-context.ts';
import { deliverDocument, documentFor, type DeliveryDeps, type Disposition } from './document-actions.ts';

export interface DownloadDeps extends CoreDeps {
  config: Pick<Config, 'linkSecret' | 'signingUrl' | 'directDownloadMaxBytes'>;
}

interface Opened { envelope: Envelope; link: DownloadLink }

/** A portal link's envelope and link: the token's hash must be one of the envelope's links, and the envelope sealed. */
function opened(envelope: Envelope | undefined, claims: { linkId: string }, token: string): Opened {
  const link = envelope?.downloadLinks?.find((l) => l.id === claims.linkId);
  const sealed = envelope?.documents.some((d) => d.kind === 'sealed');
  if (!envelope || !link || !sealed || !sameDigest(link.tokenHash, sha256Hex(token))) throw new Unauthorized('This download link is not valid', {}, 'link_invalid');
  return { envelope, link };
}

async function openDownload(deps: DownloadDeps, token: string): Promise<Opened & { claims: { envelopeId: string; linkId: string } }> {
  const claims = await verifyDownloadToken(deps.config.linkSecret, token, deps.clock.now());
  return { ...opened(await deps.envelopes.find(claims.envelopeId), claims, token), claims };
}

/**
 * What the portal offers: the first sealed document's details, as single-document clients read it, and every
 * sealed document (decision 9). 410 once the first is purged.
 */
export async function downloadStatus(deps: DownloadDeps, token: string) {
  const { envelope, link } = await openDownload(deps, token);
  const first = documentFor(envelope, 'sealed', null);
  const sealed = originals(envelope).map((original) => sealedOf(envelope, original)).filter((d): d is Document => d !== undefined);
  return {
    envelopeId: envelope.id, available: true, subject: envelope.subject, completedAt: envelope.completedAt,
    // The recipient's language, as their emails pick it (recipientLocale), without loading the mail templates.
    locale: localeOf(envelope.signers.find((s) => s.id === link.signerId)?.locale, envelope.locale),
    sha256: first.sha256, pageCount: first.pageCount, sizeBytes: first.sizeBytes, retentionUntil: first.retentionUntil,
    documents: sealed.map((d) => ({ documentId: d.id, name: documentName(d), sizeBytes: d.sizeBytes, pageCount: d.pageCount, sha256: d.sha256 })),
    branding: pageBrandingView(envelope),
  };
}

/**
 * A sealed PDF (the first, or the one `documentId` names: sealed or its original's id); the download is recorded in the
 * audit chain (and stops the deletion reminders) once the bytes, or the presigned URL of a large one, are in hand.
 */
export async function downloadSealed(deps: DownloadDeps & DeliveryDeps, token: string, documentId: string | null, meta: RequestMeta, disposition: Disposition) {
  const { envelope: found, claims } = await openDownload(deps, token);
  const sealed = documentFor(found, 'sealed', documentId);
  const delivery = await deliverDocument(deps, found, sealed, disposition);
  const { envelope } = await transact(deps, meta, () => deps.envelopes.find(claims.envelopeId).then((e) => opened(e, claims, token).envelope), (latest, ctx) =>
    ({ change: recordDownload(latest, opened(latest, claims, token).link, sealed, meta, ctx), result: null }));
  return { envelope, sealed, delivery };
}
