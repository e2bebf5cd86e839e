import * as v from 'valibot';
import { retryAttempt } from '#shared/webhooks/webhook-actions.ts';
import { task } from '#shared/http/endpoint.ts';
import { WebhookAttemptInput } from '#shared/background/workflow-schemas.ts';
import { lambda } from '#shared/http/lambda.ts';

/** The webhook-retry workflow's task: one attempt; `done` ends the execution. */
export const definition = task({
  access: { table: 'write', secrets: ['DATA_KEY'], timeoutSeconds: 30 },
}, (deps) => (input: unknown) => retryAttempt(deps, v.parse(WebhookAttemptInput, input)));

export const handler = lambda(definition);
