/** Signer attachments over HTTP: files of each format, and the presigned upload a signing page makes. */
import { expect } from 'vitest';
import { call, type ApiResponse } from './api.ts';
import { createMultipart, sigField, type EnvelopeBody } from './envelopes.ts';
import { passGates, signing, tokenOf } from './signing.ts';

export interface AttachmentUploadUrl { uploadId: string; fieldId: string; method: string; url: string; fields: Record<string, string>; maxBytes: number; expiresAt: string }
export interface SignerAttachment { id: string; fieldId: string; name: string; format: string; mimeType: string; sizeBytes: number; sha256: string; createdAt: string }

export { detachAll, detachList, jpegImage, pngImage } from './attachment-files.ts';

/** The presigned POST a client makes: every field first, the file last. */
export async function postAttachment(upload: AttachmentUploadUrl, file: Uint8Array, type = 'application/octet-stream'): Promise<Response> {
  const form = new FormData();
  for (const [name, value] of Object.entries(upload.fields)) form.append(name, value);
  form.append('file', new Blob([file], { type }), 'upload');
  return fetch(upload.url, { method: 'POST', body: form });
}

export const askUploadUrl = (token: string, fieldId: string, filename: string | null, sizeBytes?: number) =>
  signing<AttachmentUploadUrl>('POST', token, '/attachments/upload-url', { fieldId, filename, ...(sizeBytes === undefined ? {} : { sizeBytes }) });

export const completeUpload = (token: string, uploadId: string) =>
  signing<SignerAttachment>('POST', token, `/attachments/upload-url/${uploadId}/complete`);

/** Asks for a URL, stores the file, completes: the complete call's answer (201 and the attachment, or a refusal). */
export async function attach(token: string, fieldId: string, file: Uint8Array, filename: string): Promise<ApiResponse<SignerAttachment> & { upload: AttachmentUploadUrl }> {
  const asked = await askUploadUrl(token, fieldId, filename, file.byteLength);
  if (asked.status !== 200) throw new Error(`upload-url: ${String(asked.status)} ${JSON.stringify(asked.body)}`);
  const stored = await postAttachment(asked.body, file);
  if (stored.status !== 204) throw new Error(`presigned POST: ${String(stored.status)} ${await stored.text()}`);
  return { ...(await completeUpload(token, asked.body.uploadId)), upload: asked.body };
}

const unique = (name: string) => `${name}.${String(Date.now())}.${String(Math.random()).slice(2, 8)}@example.com`;
export const box = { page: 1, x: 72, y: 300, w: 200, h: 30 };

export const attachmentFields = (signerIndex: number) => [
  { signerIndex, type: 'attachment', label: 'Proof of address', accept: ['pdf'], ...box },
  { signerIndex, type: 'attachment', label: 'ID card', accept: ['png', 'jpeg'], maxBytes: 200_000, ...box, y: 250 },
  { signerIndex, type: 'attachment', label: 'Anything else', required: false, ...box, y: 200 },
];

export interface AttachmentContext { fields: { id: string; type: string; label: string | null; accept?: string[]; maxBytes?: number }[]; attachments: SignerAttachment[] }

export interface SentWithAttachments { id: string; link: string; context: AttachmentContext; byLabel: (label: string) => string }

/** A sent envelope whose one signer (no code needed) has a signature field and attachment fields, gates passed. */
export async function sentEnvelopeWithAttachments(token: string, subject: string, fields = attachmentFields(0)): Promise<SentWithAttachments> {
  const created = await createMultipart(token, { tenantId: 'attach', subject, signers: [{ name: 'Ana Attach', email: unique('ana'), authMethod: 'none' }], fields: [sigField(0), ...fields] });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const sent = await call<EnvelopeBody>('POST', `/v1/envelopes/${created.body.id}/send`, { token });
  expect(sent.status).toBe(200);
  const link = tokenOf(sent.body.signers[0]?.signingUrl);
  await passGates(link, null);
  const context = (await signing<AttachmentContext>('GET', link)).body;
  const byLabel = (label: string) => context.fields.find((f) => f.label === label)?.id ?? '';
  return { id: created.body.id, link, context, byLabel };
}

