import { expireDueEnvelopes } from '#domain/use-cases/routing.ts';
import { worker } from '#http/lambda.ts';
import type { Deps } from '#shared/deps.ts';

/** Runs every minute (EventBridge schedule on AWS, the local scheduler otherwise). */
export const createHandler = (deps: Deps) => async (): Promise<{ expired: number }> => {
  const expired = await expireDueEnvelopes(deps);
  if (expired > 0) console.log(JSON.stringify({ level: 'info', msg: 'expiry sweep', expired }));
  return { expired };
};

export const handler = worker(createHandler);
