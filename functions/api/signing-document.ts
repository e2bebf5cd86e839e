import { signingDocument } from '#domain/use-cases/signing.ts';
import { pdfResult } from '#http/documents.ts';
import { lambda } from '#http/lambda.ts';
import { route } from '#http/route.ts';
import { LinkDocumentQuery } from '#schemas/envelopes.ts';
import { TokenParams } from '#schemas/signing.ts';
import type { Deps } from '#shared/deps.ts';

export const createHandler = (deps: Deps) =>
  route({ params: TokenParams, query: LinkDocumentQuery }, async ({ params, query, meta }) => {
    const { document, bytes } = await signingDocument(deps, params.token, query.documentId ?? null, meta);
    return pdfResult(bytes, document, document.name ?? 'document.pdf', 'inline');
  });

export const handler = lambda(createHandler);
