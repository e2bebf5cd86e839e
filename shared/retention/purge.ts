import type { AuditDraft } from '../kernel/audit-chain.ts';
import { changeOf, type Ctx, type EnvelopeChange } from '../envelopes/envelope.ts';
import type { Envelope } from '../kernel/model.ts';
import type { ReminderOutboxItem } from '../notices/outbox.ts';
import { dueReminder } from './retention.ts';

/** A stored PDF is gone (its lifecycle rule expired it): the record stays, marked purged, with the evidence. */
export function purgeDocument(envelope: Envelope, documentId: string, ctx: Ctx): EnvelopeChange | null {
  const document = envelope.documents.find((d) => d.id === documentId);
  if (document?.purgeStatus !== 'active') return null;
  const now = ctx.now.toISOString();
  const documents = envelope.documents.map((d) => (d.id === documentId ? { ...d, purgeStatus: 'purged' as const, purgedAt: now } : d));
  const draft: AuditDraft = {
    event: 'document.purged', actor: 'system', ip: null, userAgent: null,
    detail: { documentId, kind: document.kind, sha256: document.sha256, retentionUntil: document.retentionUntil },
  };
  return changeOf(envelope, { ...envelope, documents }, [draft], [], ctx);
}

/** Records the reminders due now and queues their emails; null when none is due. */
export function recordReminders(envelope: Envelope, ctx: Ctx): EnvelopeChange | null {
  const sealed = envelope.documents.find((d) => d.kind === 'sealed');
  if (!envelope.deletionAt || sealed?.purgeStatus !== 'active') return null;
  const due = (envelope.downloadLinks ?? []).flatMap((link) => {
    const days = link.downloadedAt ? null : dueReminder(envelope.deletionAt ?? '', ctx.now, link.remindersSent ?? []);
    return days === null ? [] : [{ link, days }];
  });
  if (due.length === 0) return null;
  const sent = new Map(due.map(({ link, days }) => [link.id, days]));
  const downloadLinks = (envelope.downloadLinks ?? []).map((l) => {
    const days = sent.get(l.id);
    return days === undefined ? l : { ...l, remindersSent: [...(l.remindersSent ?? []), days] };
  });
  const drafts = due.map(({ link, days }): AuditDraft => ({
    event: 'document.purge_reminder_sent', actor: link.signerId ? `signer:${link.signerId}` : 'system', ip: null, userAgent: null,
    detail: { linkId: link.id, email: link.email, daysBefore: days, deletionAt: envelope.deletionAt ?? null },
  }));
  const outbox = due.map(({ link, days }): ReminderOutboxItem => ({
    kind: 'reminder', id: ctx.nextId(), envelopeId: envelope.id, createdAt: ctx.now.toISOString(), linkId: link.id, daysBefore: days,
  }));
  return changeOf(envelope, { ...envelope, downloadLinks }, drafts, outbox, ctx);
}
