import { createHash } from 'node:crypto';
import { mintDownloadToken, sha256Hex } from '../links.ts';
import type { Config } from '../../config.ts';
import type { AuditEntry } from '../audit-chain.ts';
import { assertReadyToSeal, checkSeal, completeEnvelope, recordSealFailure, type SealedFile } from '../completion.ts';
import { InvalidState } from '../errors.ts';
import type { DownloadLink, Envelope } from '../model.ts';
import { toPdfRect } from '../placement.ts';
import { sealedKey } from '../staging.ts';
import type { FieldValue, Submission } from '../submission.ts';
import { sealPdf, type SealEvidence } from '#pdf/seal.ts';
import type { FlattenItem } from '#pdf/flatten.ts';
import type { TenantRepository } from '#ports/repositories.ts';
import type { DocumentSigner } from '#ports/services.ts';
import { discardStage, stageBlobs } from './blobs.ts';
import { transactById, type CoreDeps } from './context.ts';

/** Sealing cannot go on (not fully signed, voided meanwhile): retrying will not help. */
export class EnvelopeNotReady extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EnvelopeNotReady';
  }
}

/** A stored file is not what the committed record says it is: sealing it would seal something nobody signed. */
export class BlobMismatch extends Error {
  constructor(key: string) {
    super(`Stored file ${key} does not match the SHA-256 its record names`);
    this.name = 'BlobMismatch';
  }
}

export interface SealingDeps extends CoreDeps {
  config: Pick<Config, 'linkSecret' | 'signingUrl' | 'senderCopyEmail'>;
  tenants: TenantRepository;
  documentSigner: DocumentSigner;
  /** Timestamp authority and revocation source for seals above PAdES B-B; absent: B-B. */
  sealEvidence?: SealEvidence;
}

async function load(deps: SealingDeps, envelopeId: string): Promise<Envelope> {
  const envelope = await deps.envelopes.find(envelopeId);
  if (!envelope) throw new EnvelopeNotReady(`Envelope ${envelopeId} does not exist`);
  return envelope;
}

/** The stored bytes, only if they are what the record committed (DECISIONS 31). */
async function committedBlob(deps: SealingDeps, key: string, sha256: string): Promise<Uint8Array> {
  const bytes = await deps.blobs.get(key);
  if (!bytes) throw new Error(`Stored file ${key} is missing`);
  if (createHash('sha256').update(bytes).digest('hex') !== sha256) throw new BlobMismatch(key);
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
    case 'image': return { kind: 'image', png: await committedBlob(deps, value.blobKey, value.sha256) };
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

export type SealStepResult = SealedFile & { envelopeId: string };

/**
 * Step 1: draws the fields and the audit certificate, signs, and stages the sealed PDF under a key of its own (a
 * concurrent or repeated round never overwrites another's file); finalize's commit names it, or it is discarded.
 */
export async function sealStep(deps: SealingDeps, envelopeId: string): Promise<SealStepResult> {
  const envelope = await load(deps, envelopeId);
  try { assertReadyToSeal(envelope); } catch (error) { throw new EnvelopeNotReady((error as Error).message); }
  const original = envelope.documents.find((d) => d.kind === 'original');
  if (!original) throw new EnvelopeNotReady('The envelope has no document');
  const [bytes, submissions, audit] = await Promise.all([
    committedBlob(deps, original.blobKey, original.sha256), deps.envelopes.submissions(envelopeId), deps.envelopes.auditLog(envelopeId),
  ]);
  const now = deps.clock.now();
  const { bytes: sealed, pageCount } = await sealPdf(bytes, {
    items: await flattenItems(deps, envelope, submissions), certificate: certificateInput(envelope, audit, now.toISOString()),
    signer: deps.documentSigner, signingTime: now, evidence: deps.sealEvidence,
  });
  const stage = await stageBlobs(deps, envelopeId, (stageId) => [{ key: sealedKey(envelopeId, stageId), bytes: sealed, contentType: 'application/pdf' }]);
  const sha256 = createHash('sha256').update(sealed).digest('hex');
  return { envelopeId, stageId: stage.id, blobKey: stage.keys[0] ?? '', sha256, pageCount, sizeBytes: sealed.byteLength };
}

async function downloadLinks(deps: SealingDeps, envelope: Envelope, retentionUntilEpoch: number): Promise<DownloadLink[]> {
  const issuedAt = Math.floor(deps.clock.now().getTime() / 1000);
  const recipients = envelope.signers.map((s): { name: string; email: string; signerId: string | null } => ({ name: s.name, email: s.email, signerId: s.id }));
  const copy = deps.config.senderCopyEmail;
  if (copy && !recipients.some((r) => r.email.toLowerCase() === copy.toLowerCase())) recipients.push({ name: 'Sender', email: copy, signerId: null });
  return Promise.all(recipients.map(async (recipient) => {
    const id = deps.ids.next();
    const token = await mintDownloadToken(deps.config.linkSecret, { envelopeId: envelope.id, linkId: id, issuedAt, expiresAt: retentionUntilEpoch });
    return { id, ...recipient, tokenHash: sha256Hex(token), issuedAt, expiresAt: retentionUntilEpoch, downloadedAt: null };
  }));
}

/**
 * Step 2: one transaction makes it completed with the sealed file's record, releasing its stage; `completed` is never
 * visible before the sealed PDF is stored, and the completion emails go out from its outbox. A file this round made
 * but that does not become the record (the envelope completed meanwhile, or cannot) is deleted.
 */
export async function finalizeStep(deps: SealingDeps, sealed: SealStepResult): Promise<{ envelopeId: string }> {
  const stage = { id: sealed.stageId, envelopeId: sealed.envelopeId, keys: [sealed.blobKey], createdAt: '' };
  try {
    const done = await transactById(deps, sealed.envelopeId, async (envelope, ctx) => {
      // Links outlive the PDF by 90 days, so a purged document answers 410 (gone) rather than 401 (invalid link).
      const retentionEnd = Math.floor(ctx.now.getTime() / 1000) + (envelope.retentionDays + 90) * 86_400;
      const change = completeEnvelope(envelope, sealed, await downloadLinks(deps, envelope, retentionEnd), ctx);
      return { change, result: null };
    });
    const named = done?.envelope.documents.some((d) => d.blobKey === sealed.blobKey) ?? false;
    if (!named) await discardStage(deps, stage); // a re-run after this very commit finds its file named: keep it
    if (!done) throw new EnvelopeNotReady(`Envelope ${sealed.envelopeId} does not exist`);
  } catch (error) {
    if (error instanceof EnvelopeNotReady) throw error;
    if (!(error instanceof InvalidState)) throw error;
    await discardStage(deps, stage);
    throw new EnvelopeNotReady(error.message);
  }
  return { envelopeId: sealed.envelopeId };
}

/** The workflow's catch: a round that failed records why on the envelope (the sweep starts the next round). */
export async function sealFailed(deps: SealingDeps, envelopeId: string, round: number, error: string): Promise<{ recorded: boolean }> {
  const done = await transactById(deps, envelopeId, (envelope, ctx) => ({ change: recordSealFailure(envelope, round, error, ctx), result: null }));
  return { recorded: Boolean(done?.change) };
}

/**
 * The seal sweep: fully signed envelopes not completed when their check falls due get their next round (a fresh
 * execution); after the last round the envelope records that sealing stalled, and an alarm-level line is logged.
 */
export async function sweepStalledSeals(deps: SealingDeps, limit = 100): Promise<{ restarted: number; stalled: number }> {
  const counts = { restarted: 0, stalled: 0 };
  for (const id of await deps.envelopes.dueForSealCheck(deps.clock.now(), limit)) {
    const done = await transactById(deps, id, (envelope, ctx) => {
      const checked = checkSeal(envelope, ctx);
      return { change: checked?.change ?? null, result: checked?.stalled ?? null };
    });
    if (done?.result === true) {
      counts.stalled++;
      deps.logger.error('sealing stalled: every round failed; an operator must look', { envelopeId: id, lastError: done.envelope.sealing?.lastError, alarm: true });
    } else if (done?.result === false) counts.restarted++;
  }
  return counts;
}
