import { sweepBulkSends } from '#shared/templates/bulk-sweep-actions.ts';
import { sweepOutbox } from '#shared/signing/signing-context.ts';
import { worker } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';

/**
 * Runs every minute: dispatches outbox items a crash left behind between commit and dispatch, or whose backoff ran
 * out; then the bulk sweep re-queues the chunks of bulk sends that made no progress.
 */
export const definition = worker({
  name: 'outbox-sweep',
  trigger: { kind: 'schedule', everySeconds: 60 },
  // Whatever a crash left in an outbox, or whose backoff ran out: invitations, completion emails (the sealed copy
  // attached), reminders, jobs, sealing starts, webhook events; bulk-send chunks (jobs), and the rows of a stalled batch.
  access: {
    table: 'write', secrets: ['LINK_SECRET'], mail: true, sms: true, jobs: true, starts: ['seal'], documents: { read: ['sealed/'] },
    memorySize: 1024, timeoutSeconds: 120,
  },
}, (deps) => async (): Promise<{ dispatched: number; bulk: Awaited<ReturnType<typeof sweepBulkSends>> }> => ({
  dispatched: await sweepOutbox(deps),
  bulk: await sweepBulkSends(deps),
}));

export const handler = lambda(definition);
