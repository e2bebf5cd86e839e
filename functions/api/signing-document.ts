import { signingDocument } from '#domain/use-cases/signing.ts';
import { lambda } from '#http/lambda.ts';
import { binary } from '#http/responses.ts';
import { route } from '#http/route.ts';
import { TokenParams } from '#schemas/signing.ts';
import type { Deps } from '#shared/deps.ts';

export const createHandler = (deps: Deps) =>
  route({ params: TokenParams }, async ({ params, meta }) => {
    const { document, bytes } = await signingDocument(deps, params.token, meta);
    return binary(bytes, 'application/pdf', { 'content-disposition': 'inline; filename="document.pdf"', 'x-document-sha256': document.sha256 });
  });

export const handler = lambda(createHandler);
