/** The items of an envelope in the table, and their keys (dynamo-envelope-repository.ts has the layout). */
import type { AuditEntry } from '#shared/kernel/audit-chain.ts';
import { DEFAULT_TENANT, type Envelope } from '#shared/kernel/model.ts';
import type { OutboxItem } from '#shared/notices/outbox.ts';
import { nextReminderAt } from '#shared/notices/reminders.ts';
import { type BlobStage } from '#shared/envelopes/blob-staging.ts';
import type { Submission } from '#shared/signing/submission.ts';
import { INDEX_SHARDS } from './table-schema.ts';

export type Item = Record<string, unknown>;

/** A stable shard of a UUID, for the sparse indexes. */
const shardOf = (id: string) => parseInt(id.replace(/-/g, '').slice(-4), 16) % INDEX_SHARDS;
export const SHARDS = Array.from({ length: INDEX_SHARDS }, (_, shard) => shard);

export const envPk = (id: string) => `ENV#${id}`;
export const envKey = (id: string) => ({ PK: envPk(id), SK: 'ENV' });
export const tenantKey = (appId: string, tenantId: string) => ({ PK: `APP#${appId}`, SK: `TENANT#${tenantId}` });
export const stageKey = (id: string) => ({ PK: `STAGE#${id}`, SK: 'STAGE' });
export const listPk = (appId: string, tenantId: string) => `APP#${appId}#TEN#${tenantId}`;
/** Audit entries sort by their zero-padded sequence number, before `ENV` (so one Query reads both). */
const auditSk = (seq: number) => `AUD#${String(seq).padStart(10, '0')}`;
export const idOfPk = (pk: unknown) => String(pk).replace(/^[A-Z]+#/, '');

/** Every attribute that is the table's bookkeeping rather than the record's own. */
const KEY_ATTRIBUTES = new Set(['PK', 'SK', 'itemType', 'GSI1PK', 'GSI1SK', 'GSI2PK', 'GSI2SK', 'GSI3PK', 'GSI3SK', 'GSI4PK', 'GSI4SK', 'GSI5PK', 'GSI5SK']);

/** The record an item stores, without the table's keys; the caller names the kind its writer put there. */
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the one typed cast from a stored item
export function recordOf<T>(item: Item): T {
  return Object.fromEntries(Object.entries(item).filter(([key]) => !KEY_ATTRIBUTES.has(key))) as T;
}

/** Envelopes stored before `retentionDays` existed read with the default. */
export function envelopeOf(item: Item): Envelope {
  const stored = recordOf<Omit<Envelope, 'retentionDays'> & { retentionDays?: number }>(item);
  return { ...stored, retentionDays: stored.retentionDays ?? DEFAULT_TENANT.retentionDays };
}

/** The sparse index entry of an envelope: live ones by deadline, fully signed ones by seal check, ended ones by deletion. */
function sweepIndexes(envelope: Envelope): Item {
  const shard = String(shardOf(envelope.id));
  const live = envelope.status === 'sent' || envelope.status === 'in_progress';
  if (live && envelope.sealing) {
    return envelope.sealing.nextCheckAt ? { GSI4PK: `SEAL#${shard}`, GSI4SK: `${envelope.sealing.nextCheckAt}#${envelope.id}` } : {};
  }
  if (live) {
    // A live envelope with a reminder to send is also in GSI5 (ended ones are there by deletion; decision 37)
    const remindAt = nextReminderAt(envelope);
    return { GSI4PK: `LIVE#${shard}`, GSI4SK: `${envelope.expiresAt}#${envelope.id}`, ...(remindAt ? { GSI5PK: `REMIND#${shard}`, GSI5SK: `${remindAt}#${envelope.id}` } : {}) };
  }
  const retained = envelope.deletionAt && envelope.documents.some((d) => d.purgeStatus === 'active');
  return retained ? { GSI5PK: `RET#${shard}`, GSI5SK: `${envelope.deletionAt ?? ''}#${envelope.id}` } : {};
}

export function envelopeItem(envelope: Envelope): Item {
  const sortKey = `${envelope.createdAt}#${envelope.id}`;
  return {
    ...envelope, ...envKey(envelope.id), ...sweepIndexes(envelope), itemType: 'envelope',
    GSI1PK: listPk(envelope.appId, envelope.tenantId), GSI1SK: sortKey,
    GSI2PK: `${listPk(envelope.appId, envelope.tenantId)}#ST#${envelope.status}`, GSI2SK: sortKey,
  };
}

export const auditItem = (entry: AuditEntry): Item => ({ ...entry, PK: envPk(entry.envelopeId), SK: auditSk(entry.seq), itemType: 'audit' });
export const submissionItem = (s: Submission): Item => ({ ...s, PK: envPk(s.envelopeId), SK: `SUB#${s.signerId}`, itemType: 'submission' });

/** An outbox item is due a minute after it was written (the dispatch right after its commit failed or never ran). */
const outboxDueAt = (item: OutboxItem) => item.nextAttemptAt ?? new Date(Date.parse(item.createdAt) + 60_000).toISOString();

export function outboxItem(item: OutboxItem): Item {
  const due = item.deadAt ? {} : { GSI3PK: `OUTBOX#${String(shardOf(item.id))}`, GSI3SK: `${outboxDueAt(item)}#${item.id}` };
  return { ...item, PK: envPk(item.envelopeId), SK: `OUT#${item.id}`, itemType: 'outbox', ...due };
}

export function stageItem(stage: BlobStage): Item {
  return { ...stage, ...stageKey(stage.id), itemType: 'stage', GSI3PK: `STAGED#${String(shardOf(stage.id))}`, GSI3SK: `${stage.createdAt}#${stage.id}` };
}
