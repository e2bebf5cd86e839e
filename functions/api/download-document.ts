import { downloadSealed } from '#domain/use-cases/download.ts';
import { pdfFilename, pdfResult } from '#http/documents.ts';
import { lambda } from '#http/lambda.ts';
import { route } from '#http/route.ts';
import { LinkDocumentQuery } from '#schemas/envelopes.ts';
import { TokenParams } from '#schemas/signing.ts';
import type { Deps } from '#shared/deps.ts';

export const createHandler = (deps: Deps) =>
  route({ params: TokenParams, query: LinkDocumentQuery }, async ({ params, query, meta }) => {
    const { envelope, sealed, bytes } = await downloadSealed(deps, params.token, query.documentId ?? null, meta);
    return pdfResult(bytes, sealed, pdfFilename(envelope, sealed));
  });

export const handler = lambda(createHandler);
