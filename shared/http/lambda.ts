import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { productionDeps, type Deps } from '../deps.ts';
import type { ApiHandler } from './route.ts';
import type { HttpResult } from './responses.ts';

/** The deployed entry point: wires production dependencies on the first invocation of a container. */
export function lambda(createHandler: (deps: Deps) => ApiHandler): ApiHandler {
  let wired: ApiHandler | undefined;
  return (event: APIGatewayProxyEventV2, context: Context): Promise<HttpResult> => {
    wired ??= createHandler(productionDeps());
    return wired(event, context);
  };
}

/** The same lazy wiring for workers (SQS, schedules, workflow tasks), whatever their event type. */
export function worker<E, R>(createHandler: (deps: Deps) => (event: E) => Promise<R>): (event: E) => Promise<R> {
  let wired: ((event: E) => Promise<R>) | undefined;
  return (event: E) => {
    wired ??= createHandler(productionDeps());
    return wired(event);
  };
}
