/**
 * Reminders (decision 37): every signer of the current routing group who has not signed or declined is reminded
 * `firstAfterDays` after their invitation, then every `everyDays` after the last reminder (a manual one counts), never
 * once the deadline has passed. Embedded signers are the integrator's to remind. Pure: no I/O.
 */
import type { AuditDraft } from '../kernel/audit-chain.ts';
import { changeOf, type Ctx, type EnvelopeChange } from '../kernel/change.ts';
import { InvalidState, RateLimited } from '../kernel/errors.ts';
import type { Envelope, ReminderSettings, Signer } from '../kernel/model.ts';

const DAY_MS = 86_400_000;
/** A manual remind at most once an hour per envelope. */
export const MANUAL_REMIND_INTERVAL_MS = 3_600_000;

const live = (envelope: Envelope) => envelope.status === 'sent' || envelope.status === 'in_progress';

/** Signers a reminder is for now: invited, current group (status sent or viewed), not embedded. */
export function remindable(envelope: Envelope): Signer[] {
  if (!live(envelope) || envelope.sealing) return [];
  return envelope.signers.filter((s) => (s.status === 'sent' || s.status === 'viewed') && !s.embedded);
}

/** When the signer's next automatic reminder falls due; null when none will (no settings, or `everyDays` null and one was sent). */
export function reminderDueAt(envelope: Envelope, signer: Signer, settings: ReminderSettings | null | undefined = envelope.reminders): Date | null {
  if (!settings) return null;
  const invitedAt = signer.invitedAt ?? envelope.sentAt;
  if (!invitedAt) return null;
  if (!signer.lastRemindedAt) return new Date(Date.parse(invitedAt) + settings.firstAfterDays * DAY_MS);
  if (settings.everyDays === null) return null;
  return new Date(Date.parse(signer.lastRemindedAt) + settings.everyDays * DAY_MS);
}

/** The earliest reminder the sweep must send for this envelope, before its deadline; null when none (not indexed). */
export function nextReminderAt(envelope: Envelope): string | null {
  const deadline = Date.parse(envelope.expiresAt);
  const due = remindable(envelope)
    .map((s) => reminderDueAt(envelope, s)?.getTime())
    .filter((t): t is number => t !== undefined && t < deadline);
  return due.length > 0 ? new Date(Math.min(...due)).toISOString() : null;
}

/** The signers whose automatic reminder is due at `now` (before the deadline). */
export function dueForReminder(envelope: Envelope, now: Date): Signer[] {
  if (now.getTime() >= Date.parse(envelope.expiresAt)) return [];
  return remindable(envelope).filter((s) => {
    const due = reminderDueAt(envelope, s);
    return due !== null && due.getTime() <= now.getTime();
  });
}

/** Records reminders to `signers`: each a `signer.reminded` audit event; the use case adds the messages (with their links). */
export function recordReminders(envelope: Envelope, signers: readonly Signer[], manual: boolean, ctx: Ctx): EnvelopeChange {
  const now = ctx.now.toISOString();
  const ids = new Set(signers.map((s) => s.id));
  const after: Envelope = {
    ...envelope,
    signers: envelope.signers.map((s) => (ids.has(s.id) ? { ...s, lastRemindedAt: now } : s)),
    ...(manual ? { lastManualRemindAt: now } : {}),
  };
  const drafts = signers.map((s): AuditDraft => ({
    event: 'signer.reminded', actor: manual ? ctx.meta.actor ?? 'system' : 'system', ip: manual ? ctx.meta.ip : null, userAgent: manual ? ctx.meta.userAgent : null,
    detail: { signerId: s.id, email: s.email, routingOrder: s.routingOrder, manual },
  }));
  return changeOf(envelope, after, drafts, [], ctx);
}

/** POST /remind: the current group now; 400 when the envelope is not live or nobody is left to remind, 429 within the hour. */
export function manualReminderTargets(envelope: Envelope, now: Date): Signer[] {
  if (!live(envelope)) throw new InvalidState(`Cannot remind: the envelope is ${envelope.status}`);
  const last = envelope.lastManualRemindAt ? Date.parse(envelope.lastManualRemindAt) : null;
  if (last !== null && now.getTime() - last < MANUAL_REMIND_INTERVAL_MS) {
    const wait = Math.ceil((last + MANUAL_REMIND_INTERVAL_MS - now.getTime()) / 1000);
    throw new RateLimited(`This envelope's signers were reminded less than an hour ago; try again in ${String(Math.ceil(wait / 60))} minutes`, wait);
  }
  const signers = remindable(envelope);
  if (signers.length === 0) throw new InvalidState('Nobody to remind: every signer of the current routing group has signed, or signs embedded');
  return signers;
}
