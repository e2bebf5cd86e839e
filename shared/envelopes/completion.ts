import { createHash } from 'node:crypto';
import type { AuditDraft } from '../kernel/audit-chain.ts';
import { changeOf, retentionJob, type Ctx, type EnvelopeChange } from './envelope.ts';
import { startRetention } from '../retention/retention.ts';
import { InvalidState } from '../kernel/errors.ts';
import { documentName, originals, type Document, type DownloadLink, type Envelope, type RequestMeta, type SealingState } from '../kernel/model.ts';
import type { CompletionOutboxItem, JobOutboxItem } from '../notices/outbox.ts';
import type { SealedFiles } from '#shared/background/workflow-schemas.ts';

export type { SealedFile, SealedFiles } from '#shared/background/workflow-schemas.ts';

/** Sealing may start once every signer has signed and nothing else ended the envelope. */
export function assertReadyToSeal(envelope: Envelope): void {
  if (envelope.status !== 'in_progress' && envelope.status !== 'sent') throw new InvalidState(`Cannot seal: the envelope is ${envelope.status}`);
  if (!envelope.signers.every((s) => s.status === 'signed')) throw new InvalidState('Cannot seal: not every signer has signed');
}

/**
 * The sealed PDFs are stored: the envelope completes in one change with its hashes, one sealed document per original,
 * retention dates on all of them, the recipients' download links, envelope.sealed and envelope.completed, at the time
 * the certificate states. Null when it already completed (a re-run of finalize).
 */
export function completeEnvelope(envelope: Envelope, sealed: SealedFiles, links: DownloadLink[], ctx: Ctx): EnvelopeChange | null {
  if (envelope.status === 'completed') return null;
  assertReadyToSeal(envelope);
  const documents = originals(envelope);
  if (sealed.files.length !== documents.length || documents.some((d) => !sealed.files.some((f) => f.sourceDocumentId === d.id))) {
    throw new InvalidState('Cannot complete: the sealed files do not match the envelope\'s documents');
  }
  const completedAt = sealed.sealedAt;
  const sealedDocuments = documents.map((original): Document => {
    const file = sealed.files.find((f) => f.sourceDocumentId === original.id) ?? sealed.files[0];
    return {
      id: ctx.nextId(), kind: 'sealed', name: original.name ?? documentName(original), order: original.order ?? 1, sourceDocumentId: original.id,
      mimeType: 'application/pdf', sha256: file?.sha256 ?? '', pageCount: file?.pageCount ?? 0, sizeBytes: file?.sizeBytes ?? 0,
      blobKey: file?.blobKey ?? '', createdAt: completedAt, retentionUntil: null, purgeStatus: 'active', ...(file?.padesLevel ? { padesLevel: file.padesLevel } : {}),
    };
  });
  const after: Envelope = startRetention({
    ...envelope, status: 'completed', completedAt, documentHashFinal: sealedDocuments[0]?.sha256 ?? null, downloadLinks: links,
    documents: [...envelope.documents, ...sealedDocuments], sealing: envelope.sealing ? { ...envelope.sealing, nextCheckAt: null } : null,
  }, ctx.now);
  const retentionUntil = after.documents.at(-1)?.retentionUntil ?? null;
  const system = (event: AuditDraft['event'], detail: AuditDraft['detail']): AuditDraft => ({ event, actor: 'system', ip: null, userAgent: null, detail });
  const first = sealedDocuments[0];
  const uncovered = [...new Set(sealed.files.flatMap((f) => f.uncovered ?? []))];
  const drafts = [
    system('envelope.sealed', {
      documentId: first?.id ?? null, sha256: first?.sha256 ?? null, pageCount: first?.pageCount ?? null, sizeBytes: first?.sizeBytes ?? null,
      documents: sealedDocuments.map((d) => ({ documentId: d.id, sourceDocumentId: d.sourceDocumentId, name: d.name, sha256: d.sha256, pageCount: d.pageCount, sizeBytes: d.sizeBytes })),
      ...(uncovered.length > 0 ? { charactersWithoutFont: uncovered } : {}),
    }),
    system('envelope.completed', { completedAt, retentionUntil }),
  ];
  const event = { kind: 'event' as const, id: ctx.nextId(), envelopeId: envelope.id, event: 'envelope.completed' as const, createdAt: completedAt, signerId: null };
  const emails: CompletionOutboxItem = {
    kind: 'notify', template: 'completion', id: ctx.nextId(), envelopeId: envelope.id, createdAt: completedAt, linkIds: links.map((l) => l.id),
  };
  return { ...changeOf(envelope, after, drafts, [event, emails, retentionJob(after, ctx)], ctx), releases: [sealed.stageId], settles: [sealJobId(envelope.id, envelope.sealing?.rounds ?? 1)] };
}

/** A recorded download through the portal (decision 33): it stops the deletion reminders for that link. */
export function recordDownload(envelope: Envelope, link: DownloadLink, document: Document, meta: RequestMeta, ctx: Ctx): EnvelopeChange {
  const now = ctx.now.toISOString();
  const downloadLinks = (envelope.downloadLinks ?? []).map((l) => (l.id === link.id && !l.downloadedAt ? { ...l, downloadedAt: now } : l));
  const actor = link.signerId ? `signer:${link.signerId}` : 'system';
  const draft: AuditDraft = { event: 'document.downloaded', actor, ip: meta.ip, userAgent: meta.userAgent, detail: { linkId: link.id, email: link.email, kind: 'sealed', documentId: document.id } };
  return changeOf(envelope, { ...envelope, downloadLinks }, [draft], [], ctx);
}

/** Rounds of sealing (workflow executions) before the sweep stops restarting and alarms: then it is an operator's. */
export const MAX_SEAL_ROUNDS = 4;
/** Minutes after a round starts before the sweep checks on it: a seal takes seconds, retries within it minutes. */
const SEAL_CHECK_MINUTES = [10, 30, 120, 360] as const;

const minutesAfter = (now: Date, minutes: number) => new Date(now.getTime() + minutes * 60_000).toISOString();
const checkAfterRound = (round: number) => SEAL_CHECK_MINUTES[Math.min(round, SEAL_CHECK_MINUTES.length) - 1] ?? 360;

/** Every signer signed: sealing round 1 starts (the seal workflow), and the sweep will look in on it. */
export function beginSealing(envelope: Envelope, ctx: Ctx): { envelope: Envelope; job: JobOutboxItem } {
  const sealing: SealingState = { rounds: 1, startedAt: ctx.now.toISOString(), nextCheckAt: minutesAfter(ctx.now, checkAfterRound(1)), lastError: null };
  return { envelope: { ...envelope, sealing }, job: sealJob(envelope, 1, ctx) };
}

/**
 * A seal round's outbox item has an id of its own derived from the envelope and the round: the commit that ends the
 * round (completion, recorded failure) removes it by that id, since its start is kept until then (dispatchOutbox; decision 53).
 */
export function sealJobId(envelopeId: string, round: number): string {
  const hex = createHash('sha256').update(`seal-job:${envelopeId}:${String(round)}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

const sealJob = (envelope: Envelope, round: number, ctx: Ctx): JobOutboxItem => ({
  kind: 'job', id: sealJobId(envelope.id, round), envelopeId: envelope.id, createdAt: ctx.now.toISOString(), job: { type: 'seal', envelopeId: envelope.id, round },
});

const awaitingSeal = (envelope: Envelope) =>
  (envelope.status === 'sent' || envelope.status === 'in_progress') && envelope.signers.every((s) => s.status === 'signed');

/**
 * The seal sweep's look at a fully signed envelope that is still not completed when its check falls due: start the
 * next round (a new execution: the failed one keeps its name), or, after MAX_SEAL_ROUNDS, record that it stalled and
 * stop (null `nextCheckAt`) so an operator is alarmed rather than the sweep retrying forever. Null: nothing to do.
 */
export function checkSeal(envelope: Envelope, ctx: Ctx): { change: EnvelopeChange; stalled: boolean } | null {
  const sealing = envelope.sealing;
  if (!awaitingSeal(envelope) || !sealing?.nextCheckAt || Date.parse(sealing.nextCheckAt) > ctx.now.getTime()) return null;
  const system = (event: AuditDraft['event'], detail: AuditDraft['detail']): AuditDraft => ({ event, actor: 'system', ip: null, userAgent: null, detail });
  if (sealing.rounds >= MAX_SEAL_ROUNDS) {
    const after = { ...envelope, sealing: { ...sealing, nextCheckAt: null } };
    return { change: changeOf(envelope, after, [system('envelope.seal_stalled', { rounds: sealing.rounds, lastError: sealing.lastError })], [], ctx), stalled: true };
  }
  const round = sealing.rounds + 1;
  const after = { ...envelope, sealing: { ...sealing, rounds: round, startedAt: ctx.now.toISOString(), nextCheckAt: minutesAfter(ctx.now, checkAfterRound(round)) } };
  const draft = system('envelope.seal_retried', { round, lastError: sealing.lastError });
  return { change: changeOf(envelope, after, [draft], [sealJob(envelope, round, ctx)], ctx), stalled: false };
}

/** A seal round failed (the workflow's catch): why is kept on the envelope and in its audit trail. */
export function recordSealFailure(envelope: Envelope, round: number, error: string, ctx: Ctx): EnvelopeChange | null {
  const sealing = envelope.sealing;
  if (!awaitingSeal(envelope) || !sealing) return null;
  const after = { ...envelope, sealing: { ...sealing, lastError: error } };
  const draft: AuditDraft = { event: 'envelope.seal_failed', actor: 'system', ip: null, userAgent: null, detail: { round, error } };
  return { ...changeOf(envelope, after, [draft], [], ctx), settles: [sealJobId(envelope.id, round)] };
}
