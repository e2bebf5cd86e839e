import type { Context } from 'aws-lambda';
import { productionDeps, type Deps } from '../deps.ts';
import type { FallbackFunction, RouteFunction, TaskFunction, WorkerFunction } from './endpoint.ts';
import type { ApiHandler } from './pipeline.ts';

/** The deployed entry point of a route: wires production dependencies on the first invocation of a container. */
export function lambda(definition: RouteFunction | FallbackFunction): ApiHandler;
/** The same lazy wiring for workers (SQS, schedules) and workflow tasks, whatever their event type. */
export function lambda<E, R>(definition: WorkerFunction<E, R> | TaskFunction<E, R>): (event: E) => Promise<R>;
export function lambda(definition: { createHandler: (deps: Deps) => (event: never, context: Context) => Promise<unknown> }) {
  let wired: ((event: never, context: Context) => Promise<unknown>) | undefined;
  return async (event: never, context: Context) => {
    wired ??= definition.createHandler(await productionDeps());
    return wired(event, context);
  };
}
