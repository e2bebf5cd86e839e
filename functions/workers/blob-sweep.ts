import { sweepAbandonedStages } from '#domain/use-cases/blobs.ts';
import { worker } from '#http/lambda.ts';
import type { Deps } from '#shared/deps.ts';

/** Runs hourly: blobs staged a day ago for a commit that never came (a crash) are deleted (DECISIONS 31). */
export const createHandler = (deps: Deps) => async (): Promise<{ swept: number }> => ({ swept: await sweepAbandonedStages(deps) });

export const handler = worker(createHandler);
