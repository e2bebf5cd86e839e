/**
 * The limits API Gateway and Lambda enforce, enforced locally the same way (shared/http/aws-limits.ts has the numbers):
 * a request or an answer too large for AWS, or a function running past its timeout, fails here as it fails there,
 * with a log line naming the limit, so a test meets it before a deploy does. The answers are the HTTP API's own.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { powertoolsLogger } from '#shared/adapters/powertools-logger.ts';
import { API_INTEGRATION_TIMEOUT_SECONDS, gatewayRequestBreach, invocationRequestBreach, invocationResponseBreach, type LimitBreach } from '#shared/http/aws-limits.ts';
import type { ApiHandler } from '#shared/http/pipeline.ts';
import type { HttpResult } from '#shared/http/responses.ts';

/** Resolves after `ms` unless `signal` aborts first: real time by default; tests pass one they resolve themselves. */
export type Timer = (ms: number, signal: AbortSignal) => Promise<void>;

export const realTimer: Timer = (ms, signal) => sleep(ms, undefined, { signal, ref: false });

/** Where the limit lines go: the local stack's log by default; tests read them. */
export type LimitLog = (message: string, fields: Record<string, unknown>) => void;

const logger = powertoolsLogger();
export const defaultLimitLog: LimitLog = (message, fields) => { logger.error(message, fields); };

export interface LimitOptions {
  timer?: Timer;
  log?: LimitLog;
}

const gatewayJson = (statusCode: number, message: string): HttpResult =>
  ({ statusCode, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ message }) });

/** What the HTTP API answers when its integration fails: the function, Lambda or the gateway itself refused. */
export const GATEWAY_ANSWERS = {
  /** The body is over API Gateway's 10 MB: refused before any function is invoked. */
  bodyTooLarge: (): HttpResult => ({ statusCode: 413, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'HTTP content length exceeded 10485760 bytes.' }),
  /** The event is over Lambda's 6 MB: Lambda refuses the invocation. */
  eventTooLarge: () => gatewayJson(413, 'Request Too Long'),
  /** The function failed: it threw, ran past its own timeout, or answered more than Lambda's 6 MB. */
  functionError: () => gatewayJson(500, 'Internal Server Error'),
  /** No answer within the integration timeout. */
  integrationTimeout: () => gatewayJson(503, 'Service Unavailable'),
} as const;

const breachLine = (breach: LimitBreach) =>
  `${breach.limit} of ${String(breach.bytes)} bytes is over AWS's limit of ${String(breach.maxBytes)} bytes`;

/** The error a timed-out invocation fails with, named as Lambda reports it to Step Functions. */
export class InvocationTimedOut extends Error {
  constructor(readonly seconds: number) {
    super(`Task timed out after ${seconds.toFixed(2)} seconds`);
    this.name = 'Sandbox.Timedout';
  }
}

const TIMED_OUT = Symbol('timed out');

/** `work`'s result, or TIMED_OUT once `seconds` pass first (the work is left to finish unobserved, as a frozen sandbox). */
async function race<T>(work: Promise<T>, seconds: number, timer: Timer): Promise<T | typeof TIMED_OUT> {
  const abort = new AbortController();
  const timeout = timer(seconds * 1000, abort.signal).then((): typeof TIMED_OUT => TIMED_OUT, () => new Promise<never>(() => undefined));
  try {
    return await Promise.race([work, timeout]);
  } finally {
    abort.abort();
  }
}

/** A background invocation (queue, schedule, workflow task) held to the function's timeout: past it, it fails. */
export async function invokeWithin<T>(name: string, timeoutSeconds: number, work: () => Promise<T>, options: LimitOptions = {}): Promise<T> {
  const outcome = await race(work(), timeoutSeconds, options.timer ?? realTimer);
  if (outcome !== TIMED_OUT) return outcome;
  (options.log ?? defaultLimitLog)(`${name} ran past its Lambda timeout of ${String(timeoutSeconds)} s`, { limit: 'Lambda function timeout', function: name, timeoutSeconds });
  throw new InvocationTimedOut(timeoutSeconds);
}

/** A route's function and the timeout CDK gives it. */
export interface Invocable {
  handler: ApiHandler;
  timeoutSeconds: number;
}

/** API Gateway's check on a body of `bytes` bytes: its 413, logged, or null when it passes. */
export function refusedByGateway(bytes: number, route: string, options: LimitOptions = {}): HttpResult | null {
  const breach = gatewayRequestBreach(bytes);
  if (!breach) return null;
  (options.log ?? defaultLimitLog)(breachLine(breach), { ...breach, route });
  return GATEWAY_ANSWERS.bodyTooLarge();
}

/**
 * Invokes a route's function as API Gateway and Lambda do: the event within 6 MB, an answer within the function's
 * timeout and the integration's (whichever ends first), and within 6 MB; an unhandled error is the gateway's 500.
 */
export async function invokeRoute(target: Invocable, event: APIGatewayProxyEventV2, context: Context, options: LimitOptions = {}): Promise<HttpResult> {
  const log = options.log ?? defaultLimitLog;
  const route = event.routeKey;
  const tooLarge = invocationRequestBreach(event);
  if (tooLarge) {
    log(breachLine(tooLarge), { ...tooLarge, route });
    return GATEWAY_ANSWERS.eventTooLarge();
  }
  const functionEnds = target.timeoutSeconds < API_INTEGRATION_TIMEOUT_SECONDS;
  const seconds = Math.min(target.timeoutSeconds, API_INTEGRATION_TIMEOUT_SECONDS);
  let outcome: HttpResult | typeof TIMED_OUT;
  try {
    outcome = await race(target.handler(event, context), seconds, options.timer ?? realTimer);
  } catch (error) {
    log('the function failed with an unhandled error', { route, error: (error as Error).message });
    return GATEWAY_ANSWERS.functionError();
  }
  if (outcome === TIMED_OUT) {
    if (functionEnds) {
      log(`${route} ran past its Lambda timeout of ${String(seconds)} s`, { limit: 'Lambda function timeout', route, timeoutSeconds: seconds });
      return GATEWAY_ANSWERS.functionError();
    }
    log(`${route} gave no answer within API Gateway's integration timeout of ${String(seconds)} s`, { limit: 'API Gateway integration timeout', route, timeoutSeconds: seconds });
    return GATEWAY_ANSWERS.integrationTimeout();
  }
  const answerTooLarge = invocationResponseBreach(outcome);
  if (answerTooLarge) {
    log(breachLine(answerTooLarge), { ...answerTooLarge, route });
    return GATEWAY_ANSWERS.functionError();
  }
  return outcome;
}
