import * as v from 'valibot';
import { retryAttempt } from '#domain/use-cases/webhooks.ts';
import { task } from '#http/endpoint.ts';
import { WebhookAttemptInput } from '#schemas/workflow-inputs.ts';
import { lambda } from '#http/lambda.ts';

/** The webhook-retry workflow's task: one attempt; `done` ends the execution. */
export const definition = task({
  access: { table: 'write', secrets: ['DATA_KEY'], timeoutSeconds: 30 },
}, (deps) => (input: unknown) => retryAttempt(deps, v.parse(WebhookAttemptInput, input)));

export const handler = lambda(definition);
