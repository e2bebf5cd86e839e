import { sendDeletionReminders } from '#shared/retention/retention-actions.ts';
import { worker } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';

/** Daily: the 20-, 10- and 1-day deletion reminders (decision 33). Idempotent: each is recorded before it is sent. */
export const definition = worker({
  name: 'deletion-reminders',
  trigger: { kind: 'schedule', everySeconds: 86_400 },
  access: { table: 'write', secrets: ['LINK_SECRET'], mail: true, timeoutSeconds: 300 },
}, (deps) => async (): Promise<{ reminders: number }> => ({ reminders: await sendDeletionReminders(deps) }));

export const handler = lambda(definition);
