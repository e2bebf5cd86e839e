import { describe, expect, it } from 'vitest';
import { createEnvelope, voidEnvelope } from '#shared/envelopes/envelope.ts';
import { purgeDocument } from '#shared/retention/purge.ts';
import { classFor, dueReminder, LIFECYCLE_RULES, RETENTION_DAYS } from '#shared/retention/retention.ts';
import { letterDocument, withPages, signerInput, testCtx } from '#test/support/domain.ts';

const DAY = 86_400_000;

describe('retention classes', () => {
  it('has one tag-filtered lifecycle rule per allowed length', () => {
    expect(LIFECYCLE_RULES.map((r) => [r.expireAfterDays, r.tag.value])).toEqual(RETENTION_DAYS.map((d) => [d, `d${String(d)}`]));
    expect(classFor(30)).toBe(30);
    expect(classFor(31)).toBe(90);
    expect(classFor(9999)).toBe(2555);
  });
});

describe('deletion reminders', () => {
  const deletionAt = '2026-02-01T00:00:00.000Z';
  const at = (daysLeft: number) => new Date(Date.parse(deletionAt) - daysLeft * DAY);

  it('are due 20, 10 and 1 day before deletion, each once', () => {
    expect(dueReminder(deletionAt, at(21), [])).toBeNull();
    expect(dueReminder(deletionAt, at(20), [])).toBe(20);
    expect(dueReminder(deletionAt, at(15), [20])).toBeNull();
    expect(dueReminder(deletionAt, at(10), [20])).toBe(10);
    expect(dueReminder(deletionAt, at(1), [20, 10])).toBe(1);
    expect(dueReminder(deletionAt, at(0.5), [20, 10, 1])).toBeNull();
    expect(dueReminder(deletionAt, at(0), [])).toBeNull();
  });

  it('skip to the nearest threshold when a run was missed', () => {
    expect(dueReminder(deletionAt, at(9), [])).toBe(10);
  });
});

describe('the retention window', () => {
  const created = createEnvelope({
    id: '0190f5d2-0000-7000-8000-0000000000ee', appId: 'a', tenantId: 't', subject: null, createdBy: null, expiresInDays: 7, retentionDays: 90,
    fieldOrigin: 'bottom-left', signers: [signerInput('r@example.com')], fields: [], ...withPages(letterDocument()),
  }, testCtx(new Date('2026-01-01T00:00:00.000Z')));

  it('starts when the envelope ends: deletion date on every document and a tagging job', () => {
    const voided = voidEnvelope(created.after, null, testCtx(new Date('2026-01-05T12:00:00.000Z')));
    expect(voided.after.deletionAt).toBe('2026-04-05T12:00:00.000Z');
    expect(voided.after.documents.map((d) => d.retentionUntil)).toEqual(['2026-04-05']);
    expect(voided.outbox.map((o) => (o.kind === 'job' ? o.job.type : o.kind))).toEqual(['event', 'retention.tag']);
  });

  it('marks a purged document and records document.purged once', () => {
    const documentId = created.after.documents[0]?.id ?? '';
    const purged = purgeDocument(created.after, documentId, testCtx());
    expect(purged?.after.documents[0]).toMatchObject({ purgeStatus: 'purged' });
    expect(purged?.audit.map((e) => e.event)).toEqual(['document.purged']);
    expect(purgeDocument(purged?.after ?? created.after, documentId, testCtx())).toBeNull();
  });
});
