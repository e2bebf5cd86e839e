import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { MethodNotAllowed, NotFound } from '#domain/errors.ts';
import { resultForError } from '#http/errors.ts';
import { lambda } from '#http/lambda.ts';
import { matchPath, pathPattern } from '#http/route-match.ts';
import type { ApiHandler } from '#http/route.ts';
import { routes } from '#infra/routes.ts';

const known = routes.map((def) => ({ path: pathPattern(def.method, def.path) }));

/**
 * The API's `$default` route (and the local server's fallback): a path no route has is 404, a method its path lacks
 * is 405 with `Allow` (DECISIONS 32), in the error shape, through the same traffic control as every route, so these
 * answers carry the rate-limit headers too (spec 8).
 */
export const createHandler = (): ApiHandler => (event: APIGatewayProxyEventV2) => {
  const { method, path } = event.requestContext.http;
  const match = matchPath(known, method, path);
  const error = match.kind === 'method_not_allowed'
    ? new MethodNotAllowed(`${method} is not supported on ${path}; use ${match.allowed.join(', ')}`, match.allowed)
    : new NotFound(`No route for ${method} ${path}`);
  return Promise.resolve(resultForError(error, event.requestContext.requestId || 'unknown'));
};

export const handler = lambda(createHandler);
