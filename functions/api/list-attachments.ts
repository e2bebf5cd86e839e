import { listAttachments } from '#shared/attachments/attachment-read-actions.ts';
import { bearerAccess, envelopeWrite, json, respond, route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { NO_ENVELOPE } from '#shared/http/error-docs.ts';
import { IdParams } from '#shared/http/common-schemas.ts';
import { attachmentView } from '#shared/attachments/attachment-views.ts';
import { AttachmentListResponse } from '#shared/attachments/attachment-response-schemas.ts';

export const definition = route({
  method: 'GET', path: '/v1/envelopes/{id}/attachments', auth: 'bearer', tag: 'Envelopes',
  operationId: 'listAttachments', summary: 'The files signers attached',
  description: 'Every file signers added for their attachment fields, with its SHA-256; `submitted` once the signer signed naming it (until then the signer may replace or remove it). The sealed PDF embeds the submitted ones.',
  params: IdParams,
  success: { status: 200, description: 'The attachments', content: json(AttachmentListResponse) },
  errors: { 404: NO_ENVELOPE },
  access: { ...bearerAccess, ...envelopeWrite },
}, (deps) => async ({ params, principal }) => {
  const found = await listAttachments(deps, principal.appId, params.id);
  return respond(AttachmentListResponse, { attachments: found.map(({ attachment, submitted }) => attachmentView(attachment, submitted)) });
});

export const handler = lambda(definition);
