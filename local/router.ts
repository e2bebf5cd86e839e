import { matchPath, pathPattern, type PathPattern, type RouteMatch } from '#shared/http/route-match.ts';
import type { ApiHandler } from '#shared/http/pipeline.ts';
import type { RouteDef } from '../infra/routes.ts';

export interface BoundRoute {
  def: RouteDef;
  handler: ApiHandler;
  path: PathPattern;
  /** The function's Lambda timeout, as CDK sets it (infra/stacks/access.ts). */
  timeoutSeconds: number;
}

export function bindRoute(def: RouteDef, handler: ApiHandler, timeoutSeconds: number): BoundRoute {
  return { def, handler, path: pathPattern(def.method, def.path), timeoutSeconds };
}

export function matchRoute(routes: readonly BoundRoute[], method: string, path: string): RouteMatch<BoundRoute> {
  return matchPath(routes, method, path);
}
