import { MethodNotAllowed, NotFound } from '#shared/kernel/errors.ts';
import { bearerAccess, fallback } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { matchPath, pathPattern } from '#shared/http/route-match.ts';

const METHODS = ['get', 'post', 'put', 'delete'] as const;

/**
 * The API's `$default` route (and the local server's fallback): a path no route has is 404, a method its path lacks
 * is 405 with `Allow` (decision 7), in the error shape, through the same pipeline as every route, so these answers
 * carry the rate-limit headers too (decision 31). The routes are the API description's paths (shipped beside the bundle).
 */
export const definition = fallback(
  // Counted like any request against its caller (a bearer token's application, so JWT_SECRET to tell it; else the
  // address); its rate counter is all it writes.
  { ...bearerAccess, apiDescription: true },
  (deps) => {
    let known: ReturnType<typeof pathPattern>[] | undefined;
    return async ({ method, path }) => {
      known ??= Object.entries((await deps.apiDescription.document()).paths)
        .flatMap(([path, item]) => METHODS.filter((m) => m in item).map((m) => pathPattern(m.toUpperCase(), path)));
      const match = matchPath(known.map((p) => ({ path: p })), method, path);
      throw match.kind === 'method_not_allowed'
        ? new MethodNotAllowed(`${method} is not supported on ${path}; use ${match.allowed.join(', ')}`, match.allowed)
        : new NotFound(`No route for ${method} ${path}`);
    };
  },
);

export const handler = lambda(definition);
