import { describe, expect, it } from 'vitest';
import { createEnvelope, sendEnvelope, voidEnvelope, expireIfDue, type NewEnvelopeInput } from '#shared/envelopes/envelope.ts';
import { RateLimited, InvalidState } from '#shared/kernel/errors.ts';
import type { Envelope } from '#shared/kernel/model.ts';
import type { NoticeOutboxItem, OutboxItem } from '#shared/notices/outbox.ts';
import { dueForReminder, manualReminderTargets, nextReminderAt, recordReminders, reminderDueAt } from '#shared/notices/reminders.ts';
import { decline } from '#shared/signing/signing.ts';
import { declinedNoticeEmail, signingReminderEmail, voidedNoticeEmail } from '#shared/notices/localized-notices.ts';
import { letterDocument, withPages, signerInput, testCtx } from '#test/support/domain.ts';

const T0 = new Date('2026-01-01T00:00:00.000Z');
const at = (days: number, seconds = 0) => new Date(T0.getTime() + days * 86_400_000 + seconds * 1000);
const field = (signerIndex: number) => ({ signerIndex, type: 'signature' as const, page: 1, x: 72, y: 72, w: 200, h: 40, required: true, origin: 'bottom-left' as const });

function sent(extra: Partial<NewEnvelopeInput> = {}): Envelope {
  const draft = createEnvelope({
    id: '0190f5d2-0000-7000-8000-0000000000cc', appId: 'app-1', tenantId: 'acme', subject: 'Lease', createdBy: null, expiresInDays: 10,
    fieldOrigin: 'bottom-left', ...withPages(letterDocument()), reminders: { firstAfterDays: 2, everyDays: 3 },
    signers: [signerInput('a@example.com', 1), signerInput('e@example.com', 1, { embedded: true }), signerInput('c@example.com', 2)],
    fields: [field(0), field(1), field(2)], cc: [{ name: 'Carla', email: 'carla@example.com' }], ...extra,
  }, testCtx(T0)).after;
  const envelope = sendEnvelope(draft, null, testCtx(T0)).change.after;
  return { ...envelope, signers: envelope.signers.map((s) => (s.status === 'sent' ? { ...s, invitedAt: T0.toISOString() } : s)) };
}

describe('the reminder schedule', () => {
  it('first after firstAfterDays from the invitation, then every everyDays from the last; embedded and later groups never', () => {
    let envelope = sent();
    const [ana] = envelope.signers;
    if (!ana) throw new Error('no signer');
    expect(reminderDueAt(envelope, ana)?.toISOString()).toBe(at(2).toISOString());
    expect(nextReminderAt(envelope)).toBe(at(2).toISOString());
    expect(dueForReminder(envelope, at(2, -1))).toEqual([]);
    expect(dueForReminder(envelope, at(2)).map((s) => s.email)).toEqual(['a@example.com']);
    const change = recordReminders(envelope, dueForReminder(envelope, at(2)), false, testCtx(at(2)));
    expect(change.audit.map((e) => [e.event, e.detail?.email])).toEqual([['signer.reminded', 'a@example.com']]);
    envelope = change.after;
    expect(nextReminderAt(envelope)).toBe(at(5).toISOString());
    expect(dueForReminder(envelope, at(4))).toEqual([]);
  });

  it('never at or after the deadline; once only when everyDays is null; none without settings', () => {
    const base = sent();
    const envelope = recordReminders(base, base.signers.slice(0, 1), false, testCtx(at(8))).after;
    expect(nextReminderAt(envelope)).toBeNull(); // day 11 is after the deadline (day 10)
    expect(dueForReminder(sent(), at(10))).toEqual([]);
    const once = sent({ reminders: { firstAfterDays: 1, everyDays: null } });
    expect(nextReminderAt(recordReminders(once, once.signers.slice(0, 1), false, testCtx(at(1))).after)).toBeNull();
    expect(nextReminderAt(sent({ reminders: null }))).toBeNull();
  });

  it('a manual remind: the current group now, then 429 within the hour; 400 when not live', () => {
    const envelope = sent();
    expect(manualReminderTargets(envelope, at(0, 60)).map((s) => s.email)).toEqual(['a@example.com']);
    const reminded = recordReminders(envelope, manualReminderTargets(envelope, at(0, 60)), true, testCtx(at(0, 60))).after;
    expect(() => manualReminderTargets(reminded, at(0, 60 + 3599))).toThrow(RateLimited);
    expect(manualReminderTargets(reminded, at(0, 60 + 3600))).toHaveLength(1);
    expect(nextReminderAt(reminded)).toBe(at(3, 60).toISOString()); // everyDays counts from the manual one
    const voided = voidEnvelope(envelope, null, testCtx(at(1))).after;
    expect(() => manualReminderTargets(voided, at(1))).toThrow(InvalidState);
  });
});

describe('notices', () => {
  const notices = (items: readonly OutboxItem[]) => items.filter((i): i is NoticeOutboxItem => i.kind === 'notify' && i.template === 'notice');

  it('void tells invited, non-embedded signers and cc, with the reason; a draft void tells nobody', () => {
    const [item] = notices(voidEnvelope(sent(), 'Terms changed', testCtx(at(1))).outbox);
    expect(item).toMatchObject({ notice: 'voided', reason: 'Terms changed', recipients: [{ email: 'a@example.com' }, { email: 'carla@example.com' }] });
    const draft = createEnvelope({
      id: '0190f5d2-0000-7000-8000-0000000000cd', appId: 'app-1', tenantId: 'acme', subject: null, createdBy: null, expiresInDays: 10,
      fieldOrigin: 'bottom-left', documents: [], signers: [signerInput('a@example.com')], fields: [], cc: [{ name: 'C', email: 'c@example.com' }],
    }, testCtx(T0)).after;
    expect(notices(voidEnvelope(draft, null, testCtx(T0)).outbox)).toEqual([]);
  });

  it('decline names who declined and why, and is not sent to them; expiry tells everyone invited', () => {
    const envelope = sent();
    const ana = envelope.signers[0];
    if (!ana) throw new Error('no signer');
    const [declined] = notices(decline(envelope, ana, 'Wrong rent', testCtx(at(1))).outbox);
    expect(declined).toMatchObject({ notice: 'declined', declinedBy: ana.name, reason: 'Wrong rent', recipients: [{ email: 'carla@example.com' }] });
    const [expired] = notices(expireIfDue(envelope, testCtx(at(11)))?.outbox ?? []);
    expect(expired?.recipients.map((r) => r.email)).toEqual(['a@example.com', 'carla@example.com']);
  });

  it('texts: the reason and the decliner are in the email, HTML escaped', () => {
    const envelope = sent();
    expect(voidedNoticeEmail(envelope, 'Carla', '<b>Terms</b>', 'en').html).toContain('&lt;b&gt;Terms&lt;/b&gt;');
    expect(declinedNoticeEmail(envelope, 'Carla', 'Ana', 'Too high', 'en').text).toContain('Ana declined to sign Lease');
    const ana = envelope.signers[0];
    if (!ana) throw new Error('no signer');
    const reminder = signingReminderEmail(envelope, ana.name, 'https://sign.example/sign/t', at(10), at(0), 'en');
    expect(reminder.subject).toBe('Reminder: please sign Lease');
    expect(reminder.text).toContain('https://sign.example/sign/t');
  });
});
