import { downloadAttachment } from '#shared/attachments/attachment-read-actions.ts';
import { contentDisposition, PDF_REDIRECT } from '#shared/envelopes/download-views.ts';
import { envelopeWrite, route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { binary } from '#shared/http/responses.ts';
import { MIME_TYPES } from '#shared/attachments/attachment-formats.ts';
import { AttachmentParams } from '#shared/attachments/attachment-schemas.ts';

const file = { type: 'string', contentMediaType: 'application/octet-stream' } as const;

export const definition = route({
  method: 'GET', path: '/v1/envelopes/{id}/attachments/{attachmentId}', auth: 'bearer', tag: 'Envelopes',
  operationId: 'downloadAttachment', summary: 'Download a file a signer attached',
  description: 'The file as the signer added it (byte for byte: its SHA-256 is the listed one), always as an attachment.',
  params: AttachmentParams,
  success: {
    status: 200, description: 'The file', content: { 'application/pdf': { jsonSchema: file }, 'image/png': { jsonSchema: file }, 'image/jpeg': { jsonSchema: file } },
    headers: { 'Content-Disposition': { description: '`attachment`, named as the signer named the file', schema: { type: 'string' } }, 'X-Attachment-Sha256': { description: 'SHA-256 of the file, lowercase hex', schema: { type: 'string', pattern: '^[0-9a-f]{64}$' } } },
  },
  redirect: { ...PDF_REDIRECT, description: PDF_REDIRECT.description.replace('The PDF', 'The file') },
  errors: { 404: 'No such envelope or attachment for this application', 410: 'The attachment was deleted at the end of its retention period' },
  access: { ...envelopeWrite, documents: { read: ['attachments/'] } },
}, (deps) => async ({ params, principal }) => {
  const disposition = (a: { name: string }) => contentDisposition('attachment', a.name);
  const { attachment, delivery } = await downloadAttachment(deps, principal.appId, params.id, params.attachmentId, disposition);
  if (delivery.url !== undefined) return { statusCode: 302, headers: { location: delivery.url, 'cache-control': 'no-store', 'x-attachment-sha256': attachment.sha256 }, body: '' };
  return binary(delivery.bytes, MIME_TYPES[attachment.format], { 'content-disposition': disposition(attachment), 'x-attachment-sha256': attachment.sha256 });
});

export const handler = lambda(definition);
