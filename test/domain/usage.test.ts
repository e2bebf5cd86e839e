import { describe, expect, it } from 'vitest';
import { envelopeQuota, usagePeriod } from '#shared/console/usage.ts';

describe('usage periods are calendar months in UTC (decision 30)', () => {
  it.each([
    ['2026-03-10T12:00:00.000Z', { id: '2026-03', start: '2026-03-01', end: '2026-03-31' }],
    ['2026-04-30T23:59:59.999Z', { id: '2026-04', start: '2026-04-01', end: '2026-04-30' }],
    ['2026-05-01T00:00:00.000Z', { id: '2026-05', start: '2026-05-01', end: '2026-05-31' }],
    ['2028-02-15T08:00:00.000Z', { id: '2028-02', start: '2028-02-01', end: '2028-02-29' }],
    ['2026-12-31T23:30:00.000Z', { id: '2026-12', start: '2026-12-01', end: '2026-12-31' }],
  ])('%s is in %o', (iso, period) => {
    expect(usagePeriod(new Date(iso))).toEqual(period);
  });

  it('follows UTC, not the local zone: 23:30 UTC on the last day is still that month', () => {
    expect(usagePeriod(new Date('2026-01-31T23:30:00-00:00')).id).toBe('2026-01');
    expect(usagePeriod(new Date('2026-02-01T00:30:00+02:00')).id).toBe('2026-01');
  });
});

describe('envelope quota', () => {
  it('caps sends only with a limit and without overage', () => {
    expect(envelopeQuota({ envelopesLimit: 10, overageAllowed: false })).toBe(10);
    expect(envelopeQuota({ envelopesLimit: 10, overageAllowed: true })).toBeNull();
    expect(envelopeQuota({ envelopesLimit: null, overageAllowed: false })).toBeNull();
    expect(envelopeQuota({ envelopesLimit: 0, overageAllowed: false })).toBe(0);
  });
});
