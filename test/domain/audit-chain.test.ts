import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { appendToChain, genesis, verifyChain, type AuditDraft } from '#shared/kernel/audit-chain.ts';
import { canonicalJson } from '#shared/kernel/canonical-json.ts';

const ENVELOPE = '0190f5d2-0000-7000-8000-000000000001';
const draft = (event: AuditDraft['event'], detail: AuditDraft['detail'] = null): AuditDraft => ({ event, actor: 'system', ip: '2001:db8::1', userAgent: 'ua', detail });
let n = 0;
const stamp = { timestamp: '2026-01-01T00:00:00.000Z', nextId: () => `id-${String(++n)}` };

describe('audit hash chain', () => {
  it('starts from SHA-256 of the envelope id', () => {
    expect(genesis(ENVELOPE)).toEqual({ seq: 0, hash: createHash('sha256').update(ENVELOPE).digest('hex') });
  });

  it('links each event to the previous hash and numbers them from 1', () => {
    const { entries, head } = appendToChain(ENVELOPE, genesis(ENVELOPE), [draft('envelope.created'), draft('envelope.sent')], stamp);
    expect(entries.map((e) => e.seq)).toEqual([1, 2]);
    expect(entries[0]?.prevHash).toBe(genesis(ENVELOPE).hash);
    expect(entries[1]?.prevHash).toBe(entries[0]?.hash);
    expect(head).toEqual({ seq: 2, hash: entries[1]?.hash });
  });

  it('hashes prevHash followed by the canonical JSON of the event without its hash', () => {
    const { entries } = appendToChain(ENVELOPE, genesis(ENVELOPE), [draft('envelope.created', { b: 1, a: [2, { d: 1, c: 2 }] })], stamp);
    const entry = entries[0];
    if (!entry) throw new Error('no entry');
    const { hash, ...rest } = entry;
    expect(hash).toBe(createHash('sha256').update(entry.prevHash + canonicalJson(rest)).digest('hex'));
  });

  it('verifies an intact chain continued across appends', () => {
    const first = appendToChain(ENVELOPE, genesis(ENVELOPE), [draft('envelope.created')], stamp);
    const second = appendToChain(ENVELOPE, first.head, [draft('envelope.sent'), draft('envelope.voided', { reason: 'x' })], stamp);
    expect(verifyChain(ENVELOPE, [...first.entries, ...second.entries])).toEqual({ valid: true, head: second.head });
  });

  it('says where a tampered, removed or reordered event breaks the chain', () => {
    const { entries } = appendToChain(ENVELOPE, genesis(ENVELOPE), [draft('envelope.created'), draft('envelope.sent'), draft('envelope.voided')], stamp);
    const tampered = entries.map((e) => (e.seq === 2 ? { ...e, ip: '198.51.100.1' } : e));
    expect(verifyChain(ENVELOPE, tampered)).toMatchObject({ valid: false, brokenAtSeq: 2 });
    expect(verifyChain(ENVELOPE, [entries[0], entries[2]].flatMap((e) => (e ? [e] : [])))).toMatchObject({ valid: false, brokenAtSeq: 3 });
    expect(verifyChain('0190f5d2-0000-7000-8000-000000000002', entries)).toMatchObject({ valid: false, brokenAtSeq: 1 });
  });
});

describe('canonical JSON', () => {
  it('sorts keys at every depth, drops undefined, keeps null, no whitespace', () => {
    expect(canonicalJson({ b: 1, a: { z: null, y: undefined, x: 'é' }, c: [3, 1] })).toBe('{"a":{"x":"é","z":null},"b":1,"c":[3,1]}');
  });
});
