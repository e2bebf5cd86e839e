import { expireDueEnvelopes } from '#domain/use-cases/routing.ts';
import { worker } from '#http/endpoint.ts';
import { lambda } from '#http/lambda.ts';

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
