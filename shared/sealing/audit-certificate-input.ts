/**
 * What the audit certificate states, from the envelope, its audit log and the signers' submissions: per signer how
 * they authenticated, the consent disclosure's version, the signature they adopted; who sent it; who seals it.
 */
import { X509Certificate } from 'node:crypto';
import type { AuditEntry } from '../kernel/audit-chain.ts';
import { documentName, originals, type Document, type Envelope } from '../kernel/model.ts';
import type { Submission } from '../signing/submission.ts';
import type { AdoptedSignature, AuditCertificateInput, CertificateSigner } from '#shared/sealing/audit-certificate.ts';
import type { DocumentSigner } from '#shared/ports/services.ts';
import { submittedAttachments } from '../attachments/attachments.ts';

/** Every file the signers attached, and the document whose sealed file embeds it. */
const certificateAttachments = (envelope: Envelope, submissions: Submission[]) => {
  const documents = originals(envelope);
  return submittedAttachments(envelope, submissions).map(({ attachment, field, signer }) => {
    const document = documents.find((d) => d.id === field.documentId) ?? documents[0];
    return { name: attachment.name, sizeBytes: attachment.sizeBytes, sha256: attachment.sha256, addedBy: `${signer.name} <${signer.email}>`, document: document ? documentName(document) : 'document' };
  });
};

export type CertificateFacts = Omit<AuditCertificateInput, 'padesLevel'>;

/** Each distinct signature and initials a signer adopted (the same one is often placed on many fields). */
async function adopted(submission: Submission | undefined, png: (blobKey: string, sha256: string) => Promise<Uint8Array>): Promise<AdoptedSignature[]> {
  const seen = new Set<string>();
  const result: AdoptedSignature[] = [];
  for (const value of submission?.values ?? []) {
    if (value.kind !== 'image' && value.kind !== 'typed') continue;
    const key = value.kind === 'image' ? `${value.type}:${value.sha256}` : `${value.type}:${value.fontLabel}:${value.text}`;
    if (seen.has(key)) continue;
    seen.add(key);
    result.push(value.kind === 'image'
      ? { field: value.type, kind: 'image', png: await png(value.blobKey, value.sha256), ...(value.source ? { source: value.source } : {}) }
      : { field: value.type, kind: 'typed', text: value.text, fontLabel: value.fontLabel });
  }
  return result;
}

/** The disclosure version the signer's consent event names; null when there is none (or it predates versions). */
function consentVersion(audit: AuditEntry[], signerId: string): string | null {
  const event = audit.find((e) => e.event === 'signer.consented' && e.actor === `signer:${signerId}`);
  const version = event?.detail?.disclosureVersion;
  return typeof version === 'string' ? version : null;
}

/** "CN=Acme Seal, O=Acme" from the seal certificate (the first of the chain). */
async function sealSubject(signer: DocumentSigner): Promise<string> {
  const [first] = await signer.certificateChain();
  if (!first) return '(no seal certificate)';
  return new X509Certificate(first).subject.split('\n').join(', ');
}

/** The timestamp authority's host, from TSA_URL; null when seals are not timestamped. */
function timestampAuthority(tsaUrl: string | null, timestamped: boolean): string | null {
  if (!timestamped) return null;
  if (!tsaUrl) return 'the configured timestamp authority';
  try { return new URL(tsaUrl).host; } catch { return tsaUrl; }
}

export interface CertificateSources {
  envelope: Envelope;
  audit: AuditEntry[];
  submissions: Submission[];
  sealedAt: string;
  documentSigner: DocumentSigner;
  tsaUrl: string | null;
  timestamped: boolean;
  /** Where the verification page is (the signing host): the certificate prints its address for this file. */
  signingUrl?: string;
  /** The committed bytes of a stored signature image. */
  png: (blobKey: string, sha256: string) => Promise<Uint8Array>;
}

/** The certificate's content for each original of the envelope: the same facts, each file naming itself. */
export async function certificateFacts(sources: CertificateSources): Promise<(original: Document) => CertificateFacts> {
  const { envelope, audit, submissions, sealedAt } = sources;
  const signers = await Promise.all(envelope.signers.map(async (s): Promise<CertificateSigner> => ({
    id: s.id, name: s.name, email: s.email, status: s.status, signedAt: s.signedAt, authMethod: s.authMethod,
    phone: s.authMethod === 'sms_otp' ? s.phone : null, consentVersion: consentVersion(audit, s.id),
    adopted: await adopted(submissions.find((sub) => sub.signerId === s.id), sources.png),
  })));
  const seal = { subject: await sealSubject(sources.documentSigner), timestampAuthority: timestampAuthority(sources.tsaUrl, sources.timestamped) };
  const events = audit.map(({ seq, timestamp, event, actor, ip, userAgent }) => ({ seq, timestamp, event, actor, ip, userAgent }));
  return (original) => ({
    envelopeId: envelope.id, subject: envelope.subject, originalSha256: original.sha256, originalPageCount: original.pageCount,
    createdAt: envelope.createdAt, completedAt: sealedAt, chainHead: envelope.auditHead,
    documents: originals(envelope).map((d) => ({ name: documentName(d), sha256: d.sha256, pageCount: d.pageCount, thisFile: d.id === original.id })),
    sender: { createdBy: envelope.createdBy, appId: envelope.appId, sentAt: envelope.sentAt, name: envelope.sender?.name ?? null, email: envelope.sender?.email ?? null },
    organizationName: envelope.branding?.organizationName ?? null,
    cc: (envelope.cc ?? []).map(({ name, email }) => ({ name, email })),
    seal, signers, events, attachments: certificateAttachments(envelope, submissions),
    ...(sources.signingUrl ? { verifyUrl: `${sources.signingUrl}/verify#${envelope.id}.${original.id}` } : {}),
  });
}
