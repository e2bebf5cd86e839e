import { createHash } from 'node:crypto';
import { mintDownloadToken, sha256Hex } from '../kernel/tokens.ts';
import type { Config } from '../config.ts';
import { assertReadyToSeal, checkSeal, completeEnvelope, recordSealFailure, type SealedFile } from '../envelopes/completion.ts';
import { InvalidState } from '../kernel/errors.ts';
import { originalDocument, originals, type Document, type DownloadLink, type Envelope, type Field, type PageGeometry } from '../kernel/model.ts';
import { toPdfRect } from '../envelopes/field-placement.ts';
import { sealedKey } from '../envelopes/blob-staging.ts';
import type { FieldValue, Submission } from '../signing/submission.ts';
import type { SealEvidence, SealResult } from '#shared/sealing/seal.ts';
import type { FlattenItem } from '#shared/sealing/flatten.ts';
import type { FinalizeInput } from '#shared/background/workflow-schemas.ts';
import type { DocumentSigner } from '#shared/ports/services.ts';
import { discardStage, stageBlobs } from '../envelopes/blob-actions.ts';
import { certificateFacts } from './audit-certificate-input.ts';
import { assertSealKeyMatches } from './seal-key-check.ts';
import { SYSTEM, transact, transactById, type Carriers, type CoreDeps } from '../signing/signing-context.ts';
import { readPages } from '../envelopes/page-actions.ts';
import { conditionText, hasConditions, shownFields } from '../signing/shown-fields.ts';
import { submittedAttachments } from '../attachments/attachments.ts';
import { MIME_TYPES } from '../attachments/attachment-formats.ts';
import type { AttachedFile } from './attached-files.ts';

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
  config: Pick<Config, 'linkSecret' | 'signingUrl' | 'senderCopyEmail' | 'tsaUrl'>;
}

/** The seal task: the stored files, and the key that seals them. */
export interface SealStepDeps extends SealingDeps {
  blobs: Carriers['blobs'];
  documentSigner: DocumentSigner;
  /** Timestamp authority and revocation source for seals above PAdES B-B; absent: B-B. */
  sealEvidence?: SealEvidence;
}

/** The stored bytes, only if they are what the record committed (decision 19). */
async function committedBlob(deps: Pick<SealStepDeps, 'blobs'>, key: string, sha256: string): Promise<Uint8Array> {
  const bytes = await deps.blobs.get(key);
  if (!bytes) throw new Error(`Stored file ${key} is missing`);
  if (createHash('sha256').update(bytes).digest('hex') !== sha256) throw new BlobMismatch(key);
  return bytes;
}

/** What is drawn on one original (of these `pages`): the signers' values on its fields, and its read-only fields' own values. */
async function flattenItems(deps: SealStepDeps, envelope: Envelope, original: Document, pages: readonly PageGeometry[], submissions: Submission[]): Promise<FlattenItem[]> {
  const first = originalDocument(envelope)?.id;
  const onDocument = (field: Field) => (field.documentId ?? first) === original.id;
  const submitted = submissions.flatMap((s) => s.values).map((value) => ({ value, field: envelope.fields.find((f) => f.id === value.fieldId) }));
  const readOnly = envelope.fields.filter((f) => f.readOnly).map((field) => ({ field, value: readOnlyValue(field) }));
  // A field its condition hides on the final values is not drawn, whatever was recorded for it.
  const shown = hasConditions(envelope) ? shownFields(envelope, new Map(submitted.map(({ value }) => [value.fieldId, conditionText(value)]))) : null;
  return Promise.all([...submitted, ...readOnly].flatMap(({ field, value }): Promise<FlattenItem>[] => {
    const page = field && onDocument(field) ? pages[field.page - 1] : undefined;
    if (!field || !page || !value || (shown && !shown.has(field.id))) return [];
    return [itemValue(deps, value).then((v) => ({ page: field.page, rect: toPdfRect(field, page), rotate: page.rotate, value: v }))];
  }));
}

/** A read-only field is sealed with the value the sender gave it. */
function readOnlyValue(field: Field): FieldValue | null {
  if (field.type === 'checkbox' && field.value) return { fieldId: field.id, type: 'checkbox', kind: 'checkbox', checked: field.value === 'true' };
  if (field.type === 'text' && field.value) return { fieldId: field.id, type: 'text', kind: 'text', text: field.value };
  return null;
}

async function itemValue(deps: SealStepDeps, value: FieldValue): Promise<FlattenItem['value']> {
  switch (value.kind) {
    case 'image': return { kind: 'image', png: await committedBlob(deps, value.blobKey, value.sha256) };
    case 'typed': return { kind: 'typed', text: value.text, fontLabel: value.fontLabel };
    case 'text': return { kind: 'text', text: value.text };
    case 'checkbox': return { kind: 'checkbox', checked: value.checked };
    case 'date': return { kind: 'date', date: value.date };
    case 'attachment': return { kind: 'text', text: value.name }; // the file itself is embedded (shared/attachments/embed.ts)
  }
}

/** The signers' files whose fields are on `original`, as committed: embedded in its sealed file. */
function attachedFiles(deps: SealStepDeps, envelope: Envelope, original: Document, submissions: Submission[]): Promise<AttachedFile[]> {
  const first = originalDocument(envelope)?.id;
  const on = submittedAttachments(envelope, submissions).filter(({ field }) => (field.documentId ?? first) === original.id);
  return Promise.all(on.map(async ({ attachment, field, signer }) => ({
    name: attachment.name, bytes: await committedBlob(deps, attachment.blobKey, attachment.sha256), mimeType: MIME_TYPES[attachment.format],
    createdAt: new Date(attachment.createdAt), description: `${field.label ?? 'Attachment'}: added by ${signer.name} <${signer.email}>`,
  })));
}

/** What the Seal task answers is the Finalize task's input. */
export type SealStepResult = FinalizeInput;

/**
 * Step 1: seals each original (its fields drawn, the audit certificate appended, signed) and stages the sealed files
 * in a key space of their own (a concurrent or repeated round never overwrites another's files); finalize's commit
 * names them, or they are discarded. The seal time is the one the certificate prints and the envelope completes at.
 */
export async function sealStep(deps: SealStepDeps, envelopeId: string): Promise<SealStepResult> {
  const started = performance.now();
  const whole = await deps.envelopes.findWhole(envelopeId);
  if (!whole) throw new EnvelopeNotReady(`Envelope ${envelopeId} does not exist`);
  const { envelope, submissions, auditLog: audit } = whole;
  try { assertReadyToSeal(envelope); } catch (error) { throw new EnvelopeNotReady((error as Error).message); }
  const documents = originals(envelope);
  if (documents.length === 0) throw new EnvelopeNotReady('The envelope has no document');
  // Only a round that will seal needs the key: checked once per container, before anything is signed.
  await assertSealKeyMatches(deps);
  const pages = await readPages(deps, documents);
  const now = deps.clock.now();
  const sealedAt = now.toISOString();
  const certificate = await certificateFacts({
    envelope, audit, submissions, sealedAt, documentSigner: deps.documentSigner, tsaUrl: deps.config.tsaUrl, signingUrl: deps.config.signingUrl,
    timestamped: Boolean(deps.sealEvidence?.timestamps), png: (key, sha256) => committedBlob(deps, key, sha256),
  });
  const sealed: { original: Document; result: SealResult; uncovered: string[] }[] = [];
  // The PDF, font and PKI code loads on the first seal, not at the cold start of every function of the seal chain.
  const { sealPdf, OriginalMismatch } = await import('#shared/sealing/seal.ts');
  for (const original of documents) {
    const bytes = await deps.blobs.get(original.blobKey);
    if (!bytes) throw new Error(`Stored file ${original.blobKey} is missing`);
    // Checked against its record on the seal's one pass over the bytes (before signing), not on a pass of its own.
    const result = await sealPdf(bytes, {
      items: await flattenItems(deps, envelope, original, pages.get(original.id) ?? [], submissions), certificate: certificate(original),
      signer: deps.documentSigner, signingTime: now, evidence: deps.sealEvidence, attachments: await attachedFiles(deps, envelope, original, submissions),
      originalSha256: original.sha256,
    }).catch((error: unknown) => {
      throw error instanceof OriginalMismatch ? new BlobMismatch(original.blobKey) : error;
    });
    const uncovered = [...new Set([...result.uncovered.items.flatMap((i) => i.characters), ...result.uncovered.certificate])];
    sealed.push({ original, result, uncovered });
  }
  const stage = await stageBlobs(deps, envelopeId, (stageId) => sealed.map(({ original, result }) => ({ key: sealedKey(envelopeId, stageId, original.id), bytes: result.chunks, contentType: 'application/pdf' })));
  const files = sealed.map(({ original, result, uncovered }, i): SealedFile => ({
    sourceDocumentId: original.id, blobKey: stage.keys[i] ?? '', sha256: result.sha256, pageCount: result.pageCount, sizeBytes: result.length, padesLevel: result.level,
    ...(uncovered.length > 0 ? { uncovered } : {}),
  }));
  deps.metrics.milliseconds('SealDuration', performance.now() - started);
  return { envelopeId, stageId: stage.id, sealedAt, files };
}

async function downloadLinks(deps: SealingDeps, envelope: Envelope, retentionUntilEpoch: number): Promise<DownloadLink[]> {
  const issuedAt = Math.floor(deps.clock.now().getTime() / 1000);
  const recipients = envelope.signers.map((s): { name: string; email: string; signerId: string | null } => ({ name: s.name, email: s.email, signerId: s.id }));
  // Carbon copies receive the completion email too (decision 38), once per address
  for (const cc of envelope.cc ?? []) {
    if (!recipients.some((r) => r.email.toLowerCase() === cc.email.toLowerCase())) recipients.push({ name: cc.name, email: cc.email, signerId: null });
  }
  const copy = deps.config.senderCopyEmail;
  if (copy && !recipients.some((r) => r.email.toLowerCase() === copy.toLowerCase())) recipients.push({ name: 'Sender', email: copy, signerId: null });
  return Promise.all(recipients.map(async (recipient) => {
    const id = deps.ids.next();
    const token = await mintDownloadToken(deps.config.linkSecret, { envelopeId: envelope.id, linkId: id, issuedAt, expiresAt: retentionUntilEpoch });
    return { id, ...recipient, tokenHash: sha256Hex(token), issuedAt, expiresAt: retentionUntilEpoch, downloadedAt: null };
  }));
}

/**
 * Step 2: one transaction makes it completed with the sealed files' records, releasing their stage; `completed` is
 * never visible before the sealed PDFs are stored, and the completion emails go out from its outbox. Files this round
 * made that do not become the record (the envelope completed meanwhile, or cannot) are deleted.
 */
export async function finalizeStep(deps: SealingDeps & Pick<Carriers, 'blobs'>, sealed: FinalizeInput, read: { submissions?: readonly Submission[] } = {}): Promise<{ envelopeId: string }> {
  const stage = { id: sealed.stageId, envelopeId: sealed.envelopeId, keys: sealed.files.map((f) => f.blobKey), createdAt: '' };
  // The envelope with its submissions in one read: `read` hands them to the retention tags put after the commit.
  const load = async () => {
    const whole = await deps.envelopes.findWhole(sealed.envelopeId, false);
    read.submissions = whole?.submissions;
    return whole?.envelope;
  };
  try {
    const done = await transact(deps, SYSTEM, load, async (envelope, ctx) => {
      // Links outlive the PDF by 90 days, so a purged document answers 410 (gone) rather than 401 (invalid link).
      const retentionEnd = Math.floor(ctx.now.getTime() / 1000) + (envelope.retentionDays + 90) * 86_400;
      const change = completeEnvelope(envelope, sealed, await downloadLinks(deps, envelope, retentionEnd), ctx);
      return { change, result: null };
    });
    const named = done?.envelope.documents.some((d) => d.blobKey === sealed.files[0]?.blobKey) ?? false;
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
