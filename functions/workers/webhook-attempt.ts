import * as v from 'valibot';
import { retryAttempt } from '#domain/use-cases/webhooks.ts';
import { task } from '#http/endpoint.ts';
import { lambda } from '#http/lambda.ts';

const Input = v.object({ appId: v.string(), webhookId: v.string(), deliveryId: v.string() });

/** The webhook-retry workflow's task: one attempt; `done` ends the execution. */
export const definition = task({
  access: { table: 'write', secrets: ['DATA_KEY'], timeoutSeconds: 30 },
}, (deps) => (input: unknown) => retryAttempt(deps, v.parse(Input, input)));

export const handler = lambda(definition);
