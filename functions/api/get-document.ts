import { downloadDocument } from '#domain/use-cases/envelopes.ts';
import { bearerAuth } from '#http/auth.ts';
import { lambda } from '#http/lambda.ts';
import { binary } from '#http/responses.ts';
import { route } from '#http/route.ts';
import { IdParams } from '#schemas/common.ts';
import { DocumentQuery } from '#schemas/envelopes.ts';
import type { Deps } from '#shared/deps.ts';

/** `Subject.pdf` (spec 2.2: the subject names the downloaded file), safe for a header. */
export function pdfFilename(subject: string | null, fallback: string, kind: string): string {
  const base = (subject ?? '').replace(/[^\p{L}\p{N} ._-]+/gu, '').trim().slice(0, 120) || fallback;
  return kind === 'sealed' ? `${base}.pdf` : `${base} (original).pdf`;
}

export const createHandler = (deps: Deps) =>
  route({ authenticate: bearerAuth(deps), params: IdParams, query: DocumentQuery }, async ({ params, query, principal }) => {
    const { envelope, document, bytes } = await downloadDocument(deps, principal.appId, params.id, query.kind);
    const filename = pdfFilename(envelope.subject, envelope.id, query.kind);
    const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/"/g, '');
    return binary(bytes, 'application/pdf', {
      'content-disposition': `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`,
      'x-document-sha256': document.sha256,
    });
  });

export const handler = lambda(createHandler);
