import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json.ts';

/** Audit event names (decision 20). */
export type AuditEventName =
  | 'envelope.created'
  | 'envelope.updated'
  | 'envelope.sent'
  | 'signer.added'
  | 'signer.invited'
  | 'signer.reminded'
  | 'signer.embedded_url_issued'
  | 'signer.viewed'
  | 'signer.otp_requested'
  | 'signer.otp_verified'
  | 'signer.otp_failed'
  | 'signer.otp_locked'
  | 'signer.otp_unlocked'
  | 'signer.reassigned'
  | 'signer.consented'
  | 'signer.signed'
  | 'signer.attachment_added'
  | 'signer.attachment_removed'
  | 'signer.declined'
  | 'envelope.declined'
  | 'field.added'
  | 'field.updated'
  | 'field.removed'
  | 'signer.updated'
  | 'signer.removed'
  | 'envelope.authoring_url_issued'
  | 'document.uploaded'
  | 'envelope.voided'
  | 'envelope.expired'
  | 'envelope.sealed'
  | 'envelope.completed'
  | 'document.downloaded'
  | 'document.purge_reminder_sent'
  | 'document.purged'
  | 'document.archive_renewed'
  | 'document.removed'
  | 'signer.invitation_failed'
  | 'notification.failed'
  | 'envelope.seal_failed'
  | 'envelope.seal_retried'
  | 'envelope.seal_stalled';

/** What happened, before it is placed in the chain. */
export interface AuditDraft {
  event: AuditEventName;
  actor: string; // `signer:<id>`, `user:<email>` (a console user) or `system` (decision 20)
  ip: string | null;
  userAgent: string | null;
  detail: Record<string, unknown> | null;
}

export interface AuditEntry extends AuditDraft {
  id: string;
  envelopeId: string;
  seq: number;
  timestamp: string;
  prevHash: string;
  hash: string;
}

export interface ChainHead {
  seq: number;
  hash: string;
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** The head before the first event: prevHash_0 = SHA-256 of the envelope id. */
export function genesis(envelopeId: string): ChainHead {
  return { seq: 0, hash: sha256(envelopeId) };
}

export function hashEntry(entry: Omit<AuditEntry, 'hash'>): string {
  return sha256(entry.prevHash + canonicalJson(entry));
}

/** Links drafts onto the chain after `head`; returns the hashed entries and the new head. */
export function appendToChain(
  envelopeId: string,
  head: ChainHead,
  drafts: readonly AuditDraft[],
  stamp: { timestamp: string; nextId: () => string },
): { entries: AuditEntry[]; head: ChainHead } {
  const entries: AuditEntry[] = [];
  let current = head;
  for (const draft of drafts) {
    const unhashed = { ...draft, id: stamp.nextId(), envelopeId, seq: current.seq + 1, timestamp: stamp.timestamp, prevHash: current.hash };
    const entry = { ...unhashed, hash: hashEntry(unhashed) };
    entries.push(entry);
    current = { seq: entry.seq, hash: entry.hash };
  }
  return { entries, head: current };
}

export type ChainVerdict = { valid: true; head: ChainHead } | { valid: false; brokenAtSeq: number; reason: string };

/** Recomputes the chain from the genesis and says where it breaks. */
export function verifyChain(envelopeId: string, entries: readonly AuditEntry[]): ChainVerdict {
  let head = genesis(envelopeId);
  for (const entry of entries) {
    if (entry.seq !== head.seq + 1) return { valid: false, brokenAtSeq: entry.seq, reason: 'sequence gap' };
    if (entry.prevHash !== head.hash) return { valid: false, brokenAtSeq: entry.seq, reason: 'prevHash does not match the previous hash' };
    const { hash, ...unhashed } = entry;
    if (hashEntry(unhashed) !== hash) return { valid: false, brokenAtSeq: entry.seq, reason: 'hash does not match the content' };
    head = { seq: entry.seq, hash };
  }
  return { valid: true, head };
}
