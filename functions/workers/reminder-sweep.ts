import { sweepReminders } from '#shared/notices/reminder-actions.ts';
import { worker } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';

/** Runs every five minutes (EventBridge schedule on AWS, the local scheduler on the service clock): signing reminders (decision 37). */
export const definition = worker({
  name: 'reminder-sweep',
  trigger: { kind: 'schedule', everySeconds: 300 },
  access: { table: 'write', jobs: true, secrets: ['LINK_SECRET'], mail: true, sms: true, timeoutSeconds: 120 },
}, (deps) => async (): Promise<{ envelopes: number; reminded: number }> => {
  const swept = await sweepReminders(deps);
  if (swept.reminded > 0) deps.logger.info('reminder sweep', swept);
  return swept;
});

export const handler = lambda(definition);
