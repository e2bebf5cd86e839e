import { readBulkSend } from '#shared/templates/bulk-send-actions.ts';
import { bearerAccess, json, respond, route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { IdParams } from '#shared/http/common-schemas.ts';
import { BulkSendResponse } from '#shared/templates/template-response-schemas.ts';

export const definition = route({
  method: 'GET', path: '/v1/bulk-sends/{id}', auth: 'bearer', tag: 'Templates',
  operationId: 'getBulkSend', summary: 'A bulk send\'s progress, and each failed row with its reason',
  description: 'Counts (`total`, `sent`, `failed`) and status while the rows are processed in the background (`queued`, `running`, `completed`, `completed_with_errors`), with each failed row\'s number (from 1, a CSV header is not a row), error code and message.',
  params: IdParams,
  success: { status: 200, description: 'The batch', content: json(BulkSendResponse) },
  errors: { 404: 'No such bulk send for this application' },
  access: { ...bearerAccess },
}, (deps) => async ({ params, principal }) => respond(BulkSendResponse, (await readBulkSend(deps, principal.appId, params.id)).view));

export const handler = lambda(definition);
