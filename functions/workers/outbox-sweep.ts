import { sweepOutbox } from '#domain/use-cases/context.ts';
import { worker } from '#http/lambda.ts';
import type { Deps } from '#shared/deps.ts';

/** Runs every minute: dispatches outbox items a crash left behind between commit and dispatch, or whose backoff ran out. */
export const createHandler = (deps: Deps) => async (): Promise<{ dispatched: number }> => ({ dispatched: await sweepOutbox(deps) });

export const handler = worker(createHandler);
