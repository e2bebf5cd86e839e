import { call, type ApiResponse } from './api.ts';
import { makePdf } from './pdfs.ts';

export type Json = Record<string, unknown>;
export interface EnvelopeBody {
  id: string;
  status: string;
  tenantId: string;
  subject: string | null;
  documentHashOriginal: string | null;
  documentHashFinal: string | null;
  expiresAt: string;
  signers: { id: string; email: string; status: string; routingOrder: number; signingUrl?: string | null }[];
  fields: { id: string; signerId: string; documentId: string | null; origin: string; page: number; x: number; y: number; label: string | null; value: string | null; readOnly: boolean; required: boolean }[];
  documents: ({ kind: string; retentionUntil: string | null; purgeStatus: string; purge_status: string } & Json)[];
  auditLog?: { event: string; actor: string; detail: Json | null; ip: string | null; userAgent: string | null }[];
}

export const signer = (email: string, routingOrder = 1, extra: Json = {}) => ({ name: email.split('@')[0], email, routingOrder, ...extra });
export const sigField = (signerIndex: number, extra: Json = {}) => ({ signerIndex, type: 'signature', page: 1, x: 72, y: 72, w: 180, h: 40, ...extra });

/** Multipart: the PDF and a `data` part holding the JSON request. */
export async function createMultipart(token: string, data: Json, pdf?: Uint8Array): Promise<ApiResponse<EnvelopeBody>> {
  const form = new FormData();
  form.append('data', JSON.stringify(data));
  form.append('file', new Blob([pdf ?? (await makePdf({ pages: 2 }))], { type: 'application/pdf' }), 'contract.pdf');
  return call<EnvelopeBody>('POST', '/v1/envelopes', { token, form });
}

export interface UploadUrl { uploadId: string; method: string; url: string; fields: Record<string, string>; maxBytes: number; expiresAt: string }

/** What a client does with an upload URL: a multipart POST to the bucket, every field first, the file last. */
export async function postFile(upload: UploadUrl, file: Uint8Array): Promise<Response> {
  const form = new FormData();
  for (const [name, value] of Object.entries(upload.fields)) form.append(name, value);
  form.append('file', new Blob([file], { type: 'application/pdf' }), 'upload.pdf');
  return fetch(upload.url, { method: 'POST', body: form });
}

/** A PDF added to a draft through a presigned upload, as a client must beyond a request's 4 MB: the 201 of the completion. */
export async function uploadByUrl(token: string, envelopeId: string, pdf: Uint8Array, filename = 'contract.pdf'): Promise<ApiResponse> {
  const asked = await call<UploadUrl>('POST', `/v1/envelopes/${envelopeId}/document/upload-url`, { token, json: { filename, sizeBytes: pdf.byteLength } });
  if (asked.status !== 200) throw new Error(`upload-url: ${String(asked.status)} ${JSON.stringify(asked.body)}`);
  const stored = await postFile(asked.body, pdf);
  if (stored.status !== 204) throw new Error(`presigned POST: ${String(stored.status)} ${await stored.text()}`);
  return call('POST', `/v1/envelopes/${envelopeId}/document/upload-url/${asked.body.uploadId}/complete`, { token });
}

/** Most a multipart create may carry in its file and still be under a request's 4 MB with its `data` part. */
const MULTIPART_FILE_BYTES = 3.5 * 1024 * 1024;

/**
 * An envelope with its PDF, however large, as a client creates it on AWS: one multipart request when the file fits in a
 * request, else created as JSON and the PDF uploaded by presigned URL. The draft's 201.
 */
export async function createWithPdf(token: string, data: Json, pdf: Uint8Array): Promise<ApiResponse<EnvelopeBody>> {
  if (pdf.byteLength <= MULTIPART_FILE_BYTES) return createMultipart(token, data, pdf);
  const created = await call<EnvelopeBody>('POST', '/v1/envelopes', { token, json: data });
  if (created.status !== 201) return created;
  const uploaded = await uploadByUrl(token, created.body.id, pdf);
  if (uploaded.status !== 201) throw new Error(`complete: ${String(uploaded.status)} ${JSON.stringify(uploaded.body)}`);
  const draft = await call<EnvelopeBody>('GET', `/v1/envelopes/${created.body.id}`, { token });
  return { ...draft, status: 201 };
}

/** A draft ready to send: two signers in one group plus one in a second group, a field each. */
export async function readyDraft(token: string, tenantId = 'acme', extra: Json = {}): Promise<EnvelopeBody> {
  const res = await createMultipart(token, {
    tenantId, subject: 'Service agreement',
    signers: [signer('ana@example.com', 1), signer('ben@example.com', 1), signer('cy@example.com', 2)],
    fields: [sigField(0), sigField(1), sigField(2, { page: 2 })],
    ...extra,
  });
  if (res.status !== 201) throw new Error(`create failed: ${String(res.status)} ${JSON.stringify(res.body)}`);
  return res.body;
}
