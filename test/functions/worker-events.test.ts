import { readFileSync } from 'node:fs';
import { envelopeView } from '#shared/envelopes/envelope-views.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { definition as deletionRemindersFunction } from '#functions/workers/deletion-reminders.ts';
import { definition as expirySweepFunction } from '#functions/workers/expiry-sweep.ts';
import { definition as finalizeFunction } from '#functions/workers/finalize.ts';
import { definition as jobsFunction } from '#functions/workers/jobs.ts';
import { definition as objectRemovedFunction } from '#functions/workers/object-removed.ts';
import { definition as outboxSweepFunction } from '#functions/workers/outbox-sweep.ts';
import { definition as sealFunction } from '#functions/workers/seal.ts';
import { definition as sealFailedFunction } from '#functions/workers/seal-failed.ts';
import { definition as sealSweepFunction } from '#functions/workers/seal-sweep.ts';
import { definition as blobSweepFunction } from '#functions/workers/blob-sweep.ts';
import { definition as webhookAttemptFunction } from '#functions/workers/webhook-attempt.ts';
import { memoryDeps } from '#test/support/memory-deps.ts';
import { fullySigned } from '#test/support/sealing.ts';

const deletionReminders = deletionRemindersFunction.createHandler;
const expirySweep = expirySweepFunction.createHandler;
const finalize = finalizeFunction.createHandler;
const jobs = jobsFunction.createHandler;
const objectRemoved = objectRemovedFunction.createHandler;
const outboxSweep = outboxSweepFunction.createHandler;
const seal = sealFunction.createHandler;
const sealFailed = sealFailedFunction.createHandler;
const sealSweep = sealSweepFunction.createHandler;
const blobSweep = blobSweepFunction.createHandler;
const webhookAttempt = webhookAttemptFunction.createHandler;

let deps: Awaited<ReturnType<typeof memoryDeps>>;
beforeAll(async () => { deps = await memoryDeps(); });

/** A sample from events/workers with its {{placeholders}} filled in. */
function sample(name: string, vars: Record<string, string>): never {
  const text = readFileSync(`events/workers/${name}.json`, 'utf8').replace(/\{\{(\w+)\}\}/g, (_m, key: string) => vars[key] ?? `{{${key}}}`);
  return JSON.parse(text) as never; // each handler validates its own input
}

describe('every sample event in events/workers runs through its function', () => {
  it('a failed round recorded by the workflow catch, then seal and finalize (the task inputs), retention tagging and the S3 deletion event', async () => {
    const envelopeId = await fullySigned(deps);
    expect(await sealFailed(deps)(sample('seal-failed', { envelopeId }))).toEqual({ recorded: true });
    const failed = await deps.envelopes.find(envelopeId);
    expect(failed?.sealing?.lastError).toBe('KMSInvalidStateException: arn:aws:kms:eu-west-1:111122223333:key/1234abcd is pending deletion.');
    // what GET /v1/envelopes/{id} answers while sealing is retried
    expect(failed && envelopeView(failed).sealing).toMatchObject({ rounds: expect.any(Number) as unknown, lastError: failed?.sealing?.lastError, nextCheckAt: expect.any(String) as unknown });
    const sealed = await seal(deps)(sample('seal', { envelopeId }));
    expect(Object.keys(sealed).sort()).toEqual(Object.keys(sample('finalize', { envelopeId, stageId: sealed.stageId }) as object).sort());
    const blobKey = sealed.files[0]?.blobKey ?? '';
    await finalize(deps)(sealed);
    expect(deps.sent.emails.filter((m) => m.subject.startsWith('Completed'))).toHaveLength(1);
    expect(await jobs(deps)(sample('jobs-retention-tag', { envelopeId }))).toEqual({ batchItemFailures: [] });
    await deps.blobs.delete(blobKey);
    expect(await objectRemoved(deps)(sample('object-removed', { sealedKey: blobKey }))).toEqual({ purged: 1 });
    const envelope = await deps.envelopes.find(envelopeId);
    expect(envelope?.documents.find((d) => d.kind === 'sealed')?.purgeStatus).toBe('purged');
  });

  it('the jobs queue message, the schedules and a webhook attempt for a delivery that is gone', async () => {
    expect(await jobs(deps)(sample('jobs-routing-advance', { envelopeId: deps.ids.next() }))).toEqual({ batchItemFailures: [] });
    // The scheduled workers take no input: the EventBridge event in events/workers/schedule.json is ignored.
    expect(sample('schedule', {})).toMatchObject({ 'detail-type': 'Scheduled Event' });
    expect(await expirySweep(deps)(sample('schedule', {}))).toEqual({ expired: 0 });
    expect(await outboxSweep(deps)(sample('schedule', {}))).toMatchObject({ dispatched: expect.any(Number) as unknown });
    expect(await deletionReminders(deps)(sample('schedule', {}))).toMatchObject({ reminders: expect.any(Number) as unknown });
    expect(await sealSweep(deps)(sample('schedule', {}))).toEqual({ restarted: 0, stalled: 0 });
    expect(await blobSweep(deps)(sample('schedule', {}))).toEqual({ swept: 0 });
    const gone = sample('webhook-attempt', { appId: 'app', webhookId: deps.ids.next(), deliveryId: deps.ids.next() });
    expect(await webhookAttempt(deps)(gone)).toMatchObject({ done: true });
  });
});
