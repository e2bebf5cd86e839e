import { lambda } from '#http/lambda.ts';
import { ok } from '#http/responses.ts';
import { route } from '#http/route.ts';
import { buildOpenApi, type OpenApiDocument } from '#infra/openapi.ts';
import type { Deps } from '#shared/deps.ts';

export const createHandler = (deps: Pick<Deps, 'config'>) => {
  let document: OpenApiDocument | undefined; // built on first request: it does not change at run time
  return route({}, () => {
    document ??= buildOpenApi({ serverUrl: deps.config.baseUrl });
    return Promise.resolve(ok(document, 200, { 'cache-control': 'public, max-age=300' }));
  });
};

export const handler = lambda(createHandler);
