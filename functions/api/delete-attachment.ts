import { deleteAttachment } from '#shared/attachments/attachment-actions.ts';
import { linkAccess, route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { noContent } from '#shared/http/responses.ts';
import { CONCURRENT, LINK_BEFORE_OTP, LINK_USED } from '#shared/http/error-docs.ts';
import { SigningAttachmentParams } from '#shared/attachments/attachment-schemas.ts';

export const definition = route({
  method: 'DELETE', path: '/v1/signing/{token}/attachments/{attachmentId}', auth: 'link', tag: 'Signing',
  operationId: 'deleteAttachment', summary: 'Remove a file the signer attached',
  description: 'Before signing, the signer takes back a file they added; its stored copy is deleted. Audit event `signer.attachment_removed`.',
  params: SigningAttachmentParams,
  success: { status: 204, description: 'Removed' },
  errors: { 401: LINK_BEFORE_OTP, 404: 'No such attachment of this signer', 409: CONCURRENT, 410: LINK_USED },
  access: { ...linkAccess },
}, (deps) => async ({ params, meta }) => {
  await deleteAttachment(deps, params.token, params.attachmentId, meta);
  return noContent();
});

export const handler = lambda(definition);
