import { documentName, originals, type Document, type Envelope } from '#shared/kernel/model.ts';
import type { Delivery } from '#shared/envelopes/document-actions.ts';
import { MAX_INLINE_BODY_BYTES } from '../http/aws-limits.ts';
import { binary, type HttpResult } from '../http/responses.ts';

/**
 * The downloaded file's name: the subject, with the document's own name when the envelope has several
 * (decision 9); `(original)` for an original.
 */
export function pdfFilename(envelope: Pick<Envelope, 'subject' | 'id' | 'documents'>, document: Document): string {
  const clean = (text: string) => text.replace(/\.pdf$/i, '').replace(/[^\p{L}\p{N} ._-]+/gu, '').trim();
  const subject = clean(envelope.subject ?? '').slice(0, 120) || envelope.id;
  const several = originals(envelope).length > 1;
  const base = several ? `${subject} - ${clean(documentName(document)).slice(0, 80)}` : subject;
  return document.kind === 'sealed' ? `${base}.pdf` : `${base} (original).pdf`;
}

/** `attachment` or `inline` with both filename forms (RFC 6266): ASCII for old clients, UTF-8 for the rest. */
export function contentDisposition(disposition: 'attachment' | 'inline', filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/"/g, '');
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/** A PDF answer with its name and SHA-256 header. */
export function pdfResult(bytes: Uint8Array, document: Document, filename: string, disposition: 'attachment' | 'inline' = 'attachment'): HttpResult {
  return binary(bytes, 'application/pdf', { 'content-disposition': contentDisposition(disposition, filename), 'x-document-sha256': document.sha256 });
}

/** A PDF's answer: its bytes, or for a large one 302 to its presigned URL (which names the file the same way). */
export function pdfDelivery(delivery: Delivery, document: Document, filename: string, disposition: 'attachment' | 'inline' = 'attachment'): HttpResult {
  if (delivery.url === undefined) return pdfResult(delivery.bytes, document, filename, disposition);
  return { statusCode: 302, headers: { location: delivery.url, 'cache-control': 'no-store', 'x-document-sha256': document.sha256 }, body: '' };
}

/** The 302 every PDF download declares (decision 18). */
export const PDF_REDIRECT = {
  status: 302,
  description: `The PDF is larger than DIRECT_DOWNLOAD_MAX_BYTES (at most and by default ${String(MAX_INLINE_BODY_BYTES)} bytes, about 4.45 MB: the largest body a response carries on AWS once base64-encoded): \`Location\` is a presigned S3 URL, valid 5 minutes, whose answer carries the same Content-Disposition`,
  headers: {
    Location: { description: 'The presigned URL of the PDF', schema: { type: 'string', format: 'uri' } },
    'X-Document-Sha256': { description: 'SHA-256 of the PDF, lowercase hex', schema: { type: 'string', pattern: '^[0-9a-f]{64}$' } },
  },
} as const;
