import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { changeOf, createEnvelope, type EnvelopeChange } from '#shared/envelopes/envelope.ts';
import type { Envelope } from '#shared/kernel/model.ts';
import type { OutboxItem } from '#shared/notices/outbox.ts';
import { letterDocument, withPages, signerInput, testCtx } from '#test/support/domain.ts';

/**
 * How a contract suite gets the implementation under test: `build` makes a fresh, empty instance (the Dynamo builders
 * create a table); `drop` releases what the builds made, once the suite is done.
 */
export interface Builder<T> {
  build: () => Promise<T> | T;
  drop?: () => Promise<void>;
}

/** The instance the suite's tests share (`perTest`: a fresh one for each test, for suites that read whole indexes). */
export function useBuilt<T>(builder: Builder<T>, perTest = false): () => T {
  let built: T | undefined;
  const make = async () => { built = await builder.build(); };
  if (perTest) beforeEach(make);
  else beforeAll(make);
  afterAll(async () => { await builder.drop?.(); });
  return () => {
    if (built === undefined) throw new Error('the contract suite used its instance before building it');
    return built;
  };
}

export const at = (iso: string) => new Date(iso);
export const plus = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

/** A draft with one signer and one field, created at `createdAt`; every call makes a new envelope (a UUID id). */
export function newDraft(appId = 'app-1', tenantId = 'acme', createdAt = new Date('2026-01-01T00:00:00.000Z')): EnvelopeChange {
  return createEnvelope({
    id: randomUUID(), appId, tenantId, subject: 'Contract', createdBy: null, expiresInDays: 7, fieldOrigin: 'bottom-left',
    signers: [signerInput('a@example.com')],
    fields: [{ signerIndex: 0, type: 'signature', page: 1, x: 1, y: 1, w: 10, h: 10, required: true, origin: 'bottom-left' }],
    ...withPages(letterDocument()),
  }, testCtx(createdAt));
}

/** The next version of `envelope` with `patch` applied and one audit entry, as any transition would commit it. */
export function rewrite(envelope: Envelope, patch: Partial<Envelope>, outbox: OutboxItem[] = []): EnvelopeChange {
  return changeOf(envelope, { ...envelope, ...patch }, [{ event: 'envelope.sent', actor: 'system', ip: null, userAgent: null, detail: null }], outbox, testCtx());
}

/** A job outbox item of `envelopeId`, written at `createdAt`. */
export function jobItem(envelopeId: string, createdAt: string, extra: Partial<OutboxItem> = {}): OutboxItem {
  return { kind: 'job', id: randomUUID(), envelopeId, createdAt, job: { type: 'retention.tag', envelopeId }, ...extra } as OutboxItem;
}
