import * as v from 'valibot';
import { retryAttempt } from '#domain/use-cases/webhooks.ts';
import { worker } from '#http/lambda.ts';
import type { Deps } from '#shared/deps.ts';

const Input = v.object({ appId: v.string(), webhookId: v.string(), deliveryId: v.string() });

/** The webhook-retry workflow's task: one attempt; `done` ends the execution. */
export const createHandler = (deps: Deps) => (input: unknown) => retryAttempt(deps, v.parse(Input, input));

export const handler = worker(createHandler);
