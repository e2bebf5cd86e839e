import { expireDueEnvelopes } from '#shared/envelopes/routing-actions.ts';
import { worker } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';

/** Runs every minute (EventBridge schedule on AWS, the local scheduler otherwise). */
export const definition = worker({
  name: 'expiry-sweep',
  trigger: { kind: 'schedule', everySeconds: 60 },
  access: { table: 'write', jobs: true, timeoutSeconds: 120 },
}, (deps) => async (): Promise<{ expired: number }> => {
  const expired = await expireDueEnvelopes(deps);
  if (expired > 0) deps.logger.info('expiry sweep', { expired });
  return { expired };
});

export const handler = lambda(definition);
