import { sweepStalledSeals } from '#domain/use-cases/sealing.ts';
import { worker } from '#http/lambda.ts';
import type { Deps } from '#shared/deps.ts';

/** Runs every minute: a fully signed envelope still not completed when its check falls due gets its next seal round. */
export const createHandler = (deps: Deps) => () => sweepStalledSeals(deps);

export const handler = worker(createHandler);
