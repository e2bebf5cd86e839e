import { readBulkSend } from '#domain/use-cases/bulk-send.ts';
import { bearerAccess, json, respond, route } from '#http/endpoint.ts';
import { lambda } from '#http/lambda.ts';
import { IdParams } from '#schemas/common.ts';
import { BulkSendResponse } from '#schemas/template-responses.ts';

export const definition = route({
  method: 'GET', path: '/v1/bulk-sends/{id}', auth: 'bearer', tag: 'Templates',
  operationId: 'getBulkSend', summary: 'A bulk send\'s progress, and each failed row with its reason',
  params: IdParams,
  success: { status: 200, description: 'The batch', content: json(BulkSendResponse) },
  errors: { 404: 'No such bulk send for this application' },
  access: { ...bearerAccess },
}, (deps) => async ({ params, principal }) => respond(BulkSendResponse, (await readBulkSend(deps, principal.appId, params.id)).view));

export const handler = lambda(definition);
