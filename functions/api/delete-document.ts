import { removeEnvelopeDocument } from '#domain/use-cases/documents.ts';
import { bearerAuth } from '#http/auth.ts';
import { lambda } from '#http/lambda.ts';
import { noContent } from '#http/responses.ts';
import { route } from '#http/route.ts';
import { DocumentParams } from '#schemas/envelopes.ts';
import type { Deps } from '#shared/deps.ts';

export const createHandler = (deps: Deps) =>
  route({ authenticate: bearerAuth(deps), params: DocumentParams }, async ({ params, principal, meta }) => {
    await removeEnvelopeDocument(deps, principal.appId, params.id, params.documentId, meta);
    return noContent();
  });

export const handler = lambda(createHandler);
