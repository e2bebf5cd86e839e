import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { productionDeps, type Deps } from '../deps.ts';
import type { ApiHandler } from './route.ts';
import type { HttpResult } from './responses.ts';
import { withTrafficControl } from './traffic.ts';

/** A route with what every served route gets: rate limits and Idempotency-Key handling (the local server uses it too). */
export function serveRoute(createHandler: (deps: Deps) => ApiHandler, deps: Deps): ApiHandler {
  return withTrafficControl(createHandler(deps), deps);
}

/** The deployed entry point: wires production dependencies on the first invocation of a container. */
export function lambda(createHandler: (deps: Deps) => ApiHandler): ApiHandler {
  let wired: ApiHandler | undefined;
  return async (event: APIGatewayProxyEventV2, context: Context): Promise<HttpResult> => {
    wired ??= serveRoute(createHandler, await productionDeps());
    return wired(event, context);
  };
}

/** The same lazy wiring for workers (SQS, schedules, workflow tasks), whatever their event type. */
export function worker<E, R>(createHandler: (deps: Deps) => (event: E) => Promise<R>): (event: E) => Promise<R> {
  let wired: ((event: E) => Promise<R>) | undefined;
  return async (event: E) => {
    wired ??= createHandler(await productionDeps());
    return wired(event);
  };
}
