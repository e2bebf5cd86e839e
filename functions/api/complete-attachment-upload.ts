import { completeAttachmentUpload } from '#shared/attachments/attachment-intake-actions.ts';
import { json, linkAccess, pdfHandling, respond, route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { CONCURRENT, LINK_BEFORE_OTP, LINK_USED, PDF_REFUSED } from '#shared/http/error-docs.ts';
import { signerAttachmentView } from '#shared/attachments/attachment-views.ts';
import { SigningUploadParams } from '#shared/attachments/attachment-schemas.ts';
import { SignerAttachmentResponse } from '#shared/attachments/attachment-response-schemas.ts';

export const definition = route({
  method: 'POST', path: '/v1/signing/{token}/attachments/upload-url/{uploadId}/complete', auth: 'link', tag: 'Signing',
  operationId: 'completeAttachmentUpload', summary: 'Check and add a file the signer uploaded',
  description: 'Checks the uploaded file by its content (a PDF, PNG or JPEG the field accepts; a PDF as an envelope\'s original is checked, images are decoded whole) and adds it as the field\'s attachment, replacing one added before. A refused file is deleted: ask for a new URL. A second call answers the same attachment. Audit event `signer.attachment_added`.',
  params: SigningUploadParams,
  success: { status: 201, description: 'The attachment; name its `id` in the sign request', content: json(SignerAttachmentResponse) },
  errors: {
    400: `The file is refused with its \`reason\`: \`attachment_unrecognised\` (not a PDF, PNG or JPEG by content), \`attachment_not_accepted\` (a format the field does not accept), \`attachment_damaged\` (an image that does not decode); ${PDF_REFUSED.replace(', unless the application allows them', '')}`,
    401: LINK_BEFORE_OTP, 404: 'No such upload for this link',
    409: `Nothing was uploaded yet; or ${CONCURRENT.charAt(0).toLowerCase()}${CONCURRENT.slice(1)}`,
    410: LINK_USED, 413: 'The file is larger than the field\'s maxBytes',
  },
  // Reads the staged file, stores the checked copy, deletes the staged file (a replaced attachment's file goes by a job).
  access: { ...linkAccess, documents: { read: ['uploads/'], write: ['attachments/'], delete: ['uploads/', 'attachments/'] }, ...pdfHandling },
}, (deps) => async ({ params, meta }) =>
  respond(SignerAttachmentResponse, signerAttachmentView(await completeAttachmentUpload(deps, params.token, params.uploadId, meta)), 201));

export const handler = lambda(definition);
