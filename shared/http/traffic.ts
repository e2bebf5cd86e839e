import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { RateLimited } from '#domain/errors.ts';
import type { Config } from '../config.ts';
import { callerOf } from './caller.ts';
import { viewerEvent } from './viewer.ts';
import { resultForError } from './errors.ts';
import { idempotency, type IdempotencyDeps } from './idempotency.ts';
import { budgetHeaders, rateLimits, type Charge, type RateLimitDeps } from './rate-limit.ts';
import type { HttpResult } from './responses.ts';
import type { ApiHandler } from './route.ts';

export type TrafficDeps = RateLimitDeps & IdempotencyDeps & { config: Pick<Config, 'jwtSecret' | 'rateLimits' | 'originVerifySecret'> };

const requestIdOf = (event: APIGatewayProxyEventV2) => event.requestContext.requestId || 'unknown';

/**
 * Wraps a route's pipeline with what every route gets, wherever it is served (the Lambda entry point and the local
 * server both apply it): the request is counted against its caller's budget (429 beyond it), a POST with an
 * Idempotency-Key runs at most once, and every answer, an error or a replay included, carries the budget headers.
 * It is a plain function around the middy pipeline rather than middlewares inside it because a middy early
 * response (the replay) skips the `after` middlewares that would add those headers.
 */
export function withTrafficControl(route: ApiHandler, deps: TrafficDeps): ApiHandler {
  const charge = rateLimits(deps);
  const idempotent = idempotency(deps);
  return async (received: APIGatewayProxyEventV2, context: Context): Promise<HttpResult> => {
    const event = viewerEvent(received, deps.config.originVerifySecret);
    let charged: Charge | undefined;
    let result: HttpResult;
    try {
      const caller = await callerOf(deps, event);
      charged = await charge(caller).catch((error: unknown) => {
        // Fail open: an unavailable counter store must not take the API down with it.
        console.error(JSON.stringify({ level: 'error', message: 'rate limit check failed', requestId: requestIdOf(event), error: (error as Error | undefined)?.message }));
        return undefined;
      });
      if (charged && charged.retryAfterSeconds !== null) {
        const { limit } = charged.budget;
        throw new RateLimited(`Rate limit of ${String(limit)} requests per window reached; retry after ${String(charged.retryAfterSeconds)} s`, charged.retryAfterSeconds);
      }
      result = await idempotent(caller, event, () => route(event, context));
    } catch (error) {
      result = resultForError(error, requestIdOf(event));
    }
    return {
      ...result,
      headers: { ...result.headers, ...(charged ? budgetHeaders(charged.budget) : {}), 'x-request-id': requestIdOf(event) },
    };
  };
}
