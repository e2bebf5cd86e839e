import { CONSENT_DISCLOSURE } from '#domain/signing.ts';
import { readSigningContext } from '#domain/use-cases/signing.ts';
import { lambda } from '#http/lambda.ts';
import { ok } from '#http/responses.ts';
import { route } from '#http/route.ts';
import { completedFieldView, signingContextView } from '#http/views.ts';
import { TokenParams } from '#schemas/signing.ts';
import type { Deps } from '#shared/deps.ts';

export const createHandler = (deps: Deps) =>
  route({ params: TokenParams }, async ({ params, meta }) => {
    const { envelope, signer, completed } = await readSigningContext(deps, params.token, meta);
    return ok(signingContextView(envelope, signer, CONSENT_DISCLOSURE, completed.map(completedFieldView)));
  });

export const handler = lambda(createHandler);
