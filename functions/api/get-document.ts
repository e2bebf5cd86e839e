import { downloadDocument } from '#domain/use-cases/documents.ts';
import { bearerAuth } from '#http/auth.ts';
import { pdfFilename, pdfResult } from '#http/documents.ts';
import { lambda } from '#http/lambda.ts';
import { route } from '#http/route.ts';
import { IdParams } from '#schemas/common.ts';
import { DocumentQuery } from '#schemas/envelopes.ts';
import type { Deps } from '#shared/deps.ts';

export const createHandler = (deps: Deps) =>
  route({ authenticate: bearerAuth(deps), params: IdParams, query: DocumentQuery }, async ({ params, query, principal }) => {
    const { envelope, document, bytes } = await downloadDocument(deps, principal.appId, params.id, query.kind, query.documentId ?? null);
    return pdfResult(bytes, document, pdfFilename(envelope, document));
  });

export const handler = lambda(createHandler);
