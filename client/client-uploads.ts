/**
 * Adding a PDF to a draft envelope from whatever holds its bytes: a Buffer or Uint8Array, an ArrayBuffer, a Blob or
 * File, a web ReadableStream, or a Node stream (any async iterable of chunks). A body up to `maxDirectBytes` (4 MB,
 * what API Gateway accepts) goes in the request; a larger one through a presigned upload (25 MB at most).
 */
import type { EsignClient, Schemas } from './client-types.ts';
import { ApiCallError } from './client-errors.ts';

/** The PDF's bytes in any of the forms a Node or browser program has them in. */
export type BinaryBody = Uint8Array | ArrayBuffer | Blob | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

export interface UploadOptions {
  /** The document's name in the envelope (default `document-N.pdf`). */
  filename?: string;
  /** Makes the call safe to retry (the presigned route uses it for its first call). */
  idempotencyKey?: string;
  /** Larger bodies go through a presigned upload (default 4 MB). */
  maxDirectBytes?: number;
  /** The fetch that sends the file to storage in a presigned upload (default the global fetch). */
  fetch?: typeof fetch;
}

export const MAX_DIRECT_BYTES = 4 * 1024 * 1024;

/** Reads any BinaryBody into one Uint8Array (a body the API accepts fits in memory: 25 MB at most). */
export async function toBytes(body: BinaryBody): Promise<Uint8Array> {
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (typeof Blob !== 'undefined' && body instanceof Blob) return new Uint8Array(await body.arrayBuffer());
  const chunks: Uint8Array[] = [];
  if (typeof (body as ReadableStream<Uint8Array>).getReader === 'function') {
    const reader = (body as ReadableStream<Uint8Array>).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
    }
  } else if (Symbol.asyncIterator in body) {
    for await (const chunk of body) chunks.push(typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk);
  } else {
    throw new TypeError('The document must be a Uint8Array, ArrayBuffer, Blob, ReadableStream or async iterable of bytes');
  }
  const out = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0));
  let at = 0;
  for (const chunk of chunks) { out.set(chunk, at); at += chunk.byteLength; }
  return out;
}

const idempotency = (key: string | undefined) => (key ? { 'Idempotency-Key': key } : {});

/** Adds the PDF to the draft: in the request when small, else through a presigned upload. */
export async function uploadDocument(api: EsignClient, envelopeId: string, body: BinaryBody, options: UploadOptions = {}): Promise<Schemas['DocumentUpload']> {
  const bytes = await toBytes(body);
  if (bytes.byteLength > (options.maxDirectBytes ?? MAX_DIRECT_BYTES)) return uploadLargeDocument(api, envelopeId, bytes, options);
  const { data, error, response } = await api.POST('/v1/envelopes/{id}/document', {
    params: { path: { id: envelopeId }, query: options.filename ? { filename: options.filename } : {}, header: idempotency(options.idempotencyKey) },
    body: bytes,
    headers: { 'content-type': 'application/pdf' },
  });
  if (!data) throw new ApiCallError('POST /v1/envelopes/{id}/document', response, error);
  return data;
}

/**
 * A presigned upload: asks for the URL, POSTs the file straight to storage (multipart, the given fields first and
 * the file last), then has the service check and add it.
 */
export async function uploadLargeDocument(api: EsignClient, envelopeId: string, body: BinaryBody, options: UploadOptions = {}): Promise<Schemas['DocumentUpload']> {
  const bytes = await toBytes(body);
  const path = { id: envelopeId };
  const asked = await api.POST('/v1/envelopes/{id}/document/upload-url', {
    params: { path, header: idempotency(options.idempotencyKey) },
    body: { ...(options.filename ? { filename: options.filename } : {}), sizeBytes: bytes.byteLength },
  });
  if (!asked.data) throw new ApiCallError('POST /v1/envelopes/{id}/document/upload-url', asked.response, asked.error);
  const form = new FormData();
  for (const [name, value] of Object.entries(asked.data.fields)) form.append(name, value);
  form.append('file', new Blob([bytes], { type: 'application/pdf' }), options.filename ?? 'document.pdf');
  const stored = await (options.fetch ?? fetch)(asked.data.url, { method: 'POST', body: form });
  if (!stored.ok) throw new ApiCallError('The presigned upload', stored, await stored.text());
  const done = await api.POST('/v1/envelopes/{id}/document/upload-url/{uploadId}/complete', { params: { path: { ...path, uploadId: asked.data.uploadId } } });
  if (!done.data) throw new ApiCallError('POST /v1/envelopes/{id}/document/upload-url/{uploadId}/complete', done.response, done.error);
  return done.data;
}
