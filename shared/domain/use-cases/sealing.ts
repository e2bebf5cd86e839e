import { createHash, randomUUID } from 'node:crypto';
import { downloadUrl, mintDownloadToken, sha256Hex } from '../../auth/signing-links.ts';
import type { Config } from '../../config.ts';
import type { AuditEntry } from '../audit-chain.ts';
import { assertReadyToSeal, completeEnvelope, markNotified, type SealedFile } from '../completion.ts';
import { ConcurrentModification } from '../errors.ts';
import { completionEmail } from '../messages.ts';
import type { DownloadLink, Envelope } from '../model.ts';
import { toPdfRect } from '../placement.ts';
import type { FieldValue, Submission } from '../submission.ts';
import { sealPdf, type SealEvidence } from '#pdf/seal.ts';
import type { FlattenItem } from '#pdf/flatten.ts';
import type { EnvelopeRepository, TenantRepository } from '#ports/repositories.ts';
import type { BlobStore, DocumentSigner, Mailer } from '#ports/services.ts';
import { contextOf, type CoreDeps } from './context.ts';
import { commitChange } from './notifications.ts';

/** Sealing cannot go on (not fully signed, voided meanwhile): retrying will not help. */
export class EnvelopeNotReady extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EnvelopeNotReady';
  }
}

export const MAX_ATTACHMENT_BYTES = 7 * 1024 * 1024;

export interface SealingDeps extends CoreDeps {
  config: Pick<Config, 'linkSecret' | 'signingUrl' | 'senderCopyEmail'>;
  envelopes: EnvelopeRepository;
  tenants: TenantRepository;
  blobs: BlobStore;
  mailer: Mailer;
  documentSigner: DocumentSigner;
  /** Timestamp authority and revocation source for seals above PAdES B-B; absent: B-B. */
  sealEvidence?: SealEvidence;
}

async function load(deps: SealingDeps, envelopeId: string): Promise<Envelope> {
  const envelope = await deps.envelopes.find(envelopeId);
  if (!envelope) throw new EnvelopeNotReady(`Envelope ${envelopeId} does not exist`);
  return envelope;
}

async function requireBlob(blobs: BlobStore, key: string): Promise<Uint8Array> {
  const bytes = await blobs.get(key);
  if (!bytes) throw new Error(`Stored file ${key} is missing`);
  return bytes;
}

async function flattenItems(deps: SealingDeps, envelope: Envelope, submissions: Submission[]): Promise<FlattenItem[]> {
  const original = envelope.documents.find((d) => d.kind === 'original');
  const values = submissions.flatMap((s) => s.values);
  return Promise.all(values.flatMap((value): Promise<FlattenItem>[] => {
    const field = envelope.fields.find((f) => f.id === value.fieldId);
    const page = field ? original?.pages[field.page - 1] : undefined;
    if (!field || !page) return [];
    return [itemValue(deps, value).then((v) => ({ page: field.page, rect: toPdfRect(field, page), rotate: page.rotate, value: v }))];
  }));
}

async function itemValue(deps: SealingDeps, value: FieldValue): Promise<FlattenItem['value']> {
  switch (value.kind) {
    case 'image': return { kind: 'image', png: await requireBlob(deps.blobs, value.blobKey) };
    case 'typed': return { kind: 'typed', text: value.text, fontLabel: value.fontLabel };
    case 'text': return { kind: 'text', text: value.text };
    case 'checkbox': return { kind: 'checkbox', checked: value.checked };
    case 'date': return { kind: 'date', date: value.date };
  }
}

function certificateInput(envelope: Envelope, audit: AuditEntry[], completedAt: string) {
  const original = envelope.documents.find((d) => d.kind === 'original');
  return {
    envelopeId: envelope.id, subject: envelope.subject, originalSha256: original?.sha256 ?? '', originalPageCount: original?.pageCount ?? 0,
    createdAt: envelope.createdAt, completedAt, chainHead: envelope.auditHead,
    documents: original ? [{ name: envelope.subject ?? 'Document', sha256: original.sha256, pageCount: original.pageCount }] : [],
    signers: envelope.signers.map(({ id, name, email, status, signedAt }) => ({ id, name, email, status, signedAt })),
    events: audit.map(({ seq, timestamp, event, actor, ip, userAgent }) => ({ seq, timestamp, event, actor, ip, userAgent })),
  };
}

export const sealedKey = (envelopeId: string) => `sealed/${envelopeId}.pdf`;

/** Step 1: draws the fields and the audit certificate, signs, and stores the sealed PDF. */
export async function sealStep(deps: SealingDeps, envelopeId: string): Promise<SealedFile & { envelopeId: string }> {
  const envelope = await load(deps, envelopeId);
  const existing = envelope.documents.find((d) => d.kind === 'sealed');
  if (existing) return { envelopeId, blobKey: existing.blobKey, sha256: existing.sha256, pageCount: existing.pageCount, sizeBytes: existing.sizeBytes };
  try { assertReadyToSeal(envelope); } catch (error) { throw new EnvelopeNotReady((error as Error).message); }
  const original = envelope.documents.find((d) => d.kind === 'original');
  if (!original) throw new EnvelopeNotReady('The envelope has no document');
  const [bytes, submissions, audit] = await Promise.all([
    requireBlob(deps.blobs, original.blobKey), deps.envelopes.submissions(envelopeId), deps.envelopes.auditLog(envelopeId),
  ]);
  const now = deps.clock.now();
  const { bytes: sealed, pageCount } = await sealPdf(bytes, {
    items: await flattenItems(deps, envelope, submissions), certificate: certificateInput(envelope, audit, now.toISOString()),
    signer: deps.documentSigner, signingTime: now, evidence: deps.sealEvidence,
  });
  const blobKey = sealedKey(envelopeId);
  await deps.blobs.put(blobKey, sealed, 'application/pdf');
  const sha256 = createHash('sha256').update(sealed).digest('hex');
  return { envelopeId, blobKey, sha256, pageCount, sizeBytes: sealed.byteLength };
}

async function downloadLinks(deps: SealingDeps, envelope: Envelope, retentionUntilEpoch: number): Promise<DownloadLink[]> {
  const issuedAt = Math.floor(deps.clock.now().getTime() / 1000);
  const recipients = envelope.signers.map((s): { name: string; email: string; signerId: string | null } => ({ name: s.name, email: s.email, signerId: s.id }));
  const copy = deps.config.senderCopyEmail;
  if (copy && !recipients.some((r) => r.email.toLowerCase() === copy.toLowerCase())) recipients.push({ name: 'Sender', email: copy, signerId: null });
  return Promise.all(recipients.map(async (recipient) => {
    const id = randomUUID();
    const token = await mintDownloadToken(deps.config.linkSecret, { envelopeId: envelope.id, linkId: id, issuedAt, expiresAt: retentionUntilEpoch });
    return { id, ...recipient, tokenHash: sha256Hex(token), issuedAt, expiresAt: retentionUntilEpoch, downloadedAt: null };
  }));
}

/** Step 2: one transaction makes it completed; `completed` is never visible before the sealed PDF is stored. */
export async function finalizeStep(deps: SealingDeps, sealed: SealedFile & { envelopeId: string }): Promise<{ envelopeId: string }> {
  for (let attempt = 1; ; attempt++) {
    const envelope = await load(deps, sealed.envelopeId);
    const ctx = contextOf(deps, { ip: null, userAgent: null });
    // Links outlive the PDF by 90 days, so a purged document answers 410 (gone) rather than 401 (invalid link).
    const retentionEnd = Math.floor(ctx.now.getTime() / 1000) + (envelope.retentionDays + 90) * 86_400;
    let change;
    try {
      change = completeEnvelope(envelope, sealed, await downloadLinks(deps, envelope, retentionEnd), ctx);
    } catch (error) {
      throw new EnvelopeNotReady((error as Error).message);
    }
    if (!change) return { envelopeId: sealed.envelopeId };
    try {
      await commitChange(deps, change);
      return { envelopeId: sealed.envelopeId };
    } catch (error) {
      if (!(error instanceof ConcurrentModification) || attempt >= 10) throw error;
    }
  }
}

/** Step 3: every party gets the sealed copy, attached up to 7 MB, and a download-portal link in every case. */
export async function notifyStep(deps: SealingDeps, envelopeId: string): Promise<{ envelopeId: string; emails: number }> {
  const envelope = await load(deps, envelopeId);
  const sealed = envelope.documents.find((d) => d.kind === 'sealed');
  if (!sealed || envelope.completionNotifiedAt) return { envelopeId, emails: 0 };
  const attach = sealed.sizeBytes <= MAX_ATTACHMENT_BYTES;
  const pdf = attach ? await requireBlob(deps.blobs, sealed.blobKey) : null;
  const filename = `${(envelope.subject ?? 'document').replace(/[^\p{L}\p{N} ._-]+/gu, '').trim() || 'document'}.pdf`;
  for (const link of envelope.downloadLinks ?? []) {
    const url = downloadUrl(deps.config.signingUrl, await mintDownloadToken(deps.config.linkSecret, { envelopeId, linkId: link.id, issuedAt: link.issuedAt, expiresAt: link.expiresAt }));
    const email = completionEmail(envelope, link.name, url, sealed.sha256, pdf !== null, sealed.retentionUntil);
    await deps.mailer.send({ to: link.email, ...email, ...(pdf ? { attachments: [{ filename, contentType: 'application/pdf', content: pdf }] } : {}) });
  }
  const change = markNotified(envelope, contextOf(deps, { ip: null, userAgent: null }));
  if (change) await deps.envelopes.commit(change).catch((error: unknown) => { if (!(error instanceof ConcurrentModification)) throw error; });
  return { envelopeId, emails: envelope.downloadLinks?.length ?? 0 };
}
