import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { IdempotencyKeyReused, RequestInProgress, ValidationError } from '#domain/errors.ts';
import type { Clock } from '#ports/services.ts';
import type { IdempotencyClaim, IdempotencyStore, StoredResponse } from '#ports/traffic.ts';
import type { Caller } from './caller.ts';
import { requestFingerprint } from './fingerprint.ts';
import type { HttpResult } from './responses.ts';

export interface IdempotencyDeps {
  clock: Clock;
  idempotency: IdempotencyStore;
}

/** Spec 8: a replay within 24 hours returns the original answer. */
const RECORD_SECONDS = 24 * 3600;
/** Longer than any API request may run (API Gateway stops waiting at 30 s); an older unfinished claim was abandoned. */
const LOCK_SECONDS = 60;
const KEY = /^[\x21-\x7e]{1,255}$/;

export const REPLAYED_HEADER = 'idempotent-replayed';

/** Completed 2xx and 4xx answers are replayed (DECISIONS 24); a 5xx or a 429 is not, so a retry runs again. */
/**
 * Kept for replay: 2xx, and the 4xx that are final for this request. Not a 429 (try later), nor a 409: it says the
 * envelope's state did not allow the request now (a concurrent change, already done), so nothing was done and a
 * retry with the same key must run again rather than be told "retry" for 24 hours.
 */
const storable = (status: number) => (status >= 200 && status < 300) || (status >= 400 && status < 500 && status !== 429 && status !== 409);

/** (application, key) for bearer calls, (link token, key) for signer calls; none for calls that carry neither. */
function scopeOf(caller: Caller): string | undefined {
  if (caller.kind === 'app') return caller.appId;
  if (caller.kind === 'link') return `TOK-${caller.tokenHash}`;
  return undefined;
}

function storedOf(result: HttpResult): StoredResponse {
  const { 'x-request-id': _requestId, ...headers } = result.headers;
  return { statusCode: result.statusCode, headers, body: result.body ?? '', isBase64Encoded: result.isBase64Encoded ?? false };
}

function replayOf(stored: StoredResponse): HttpResult {
  return { ...stored, headers: { ...stored.headers, [REPLAYED_HEADER]: 'true' } };
}

function logFailure(message: string, claim: IdempotencyClaim, error: unknown): void {
  console.error(JSON.stringify({ level: 'error', message, id: claim.id, error: (error as Error | undefined)?.message }));
}

/**
 * Runs a POST that carries an Idempotency-Key at most once per (scope, key): a conditional put claims the key, so of
 * concurrent first requests exactly one runs; the others are told it is in progress, and later ones get the replay.
 */
export function idempotency(deps: IdempotencyDeps) {
  return async function idempotent(caller: Caller, event: APIGatewayProxyEventV2, run: () => Promise<HttpResult>): Promise<HttpResult> {
    const key = event.headers['idempotency-key'];
    const scope = scopeOf(caller);
    if (event.requestContext.http.method !== 'POST' || key === undefined || !scope) return run();
    if (!KEY.test(key)) throw ValidationError.at('Idempotency-Key', 'must be 1 to 255 visible ASCII characters');
    const claim: IdempotencyClaim = {
      id: `${scope}#${key}`, fingerprint: requestFingerprint(event), owner: randomUUID(), now: deps.clock.now(),
      lockSeconds: LOCK_SECONDS, expiresInSeconds: RECORD_SECONDS,
    };
    const holder = await deps.idempotency.claim(claim);
    if (holder && holder.fingerprint !== claim.fingerprint) {
      throw new IdempotencyKeyReused('This Idempotency-Key was used for a different request; use a new key for a new request');
    }
    if (holder?.state === 'in_progress') throw new RequestInProgress('A request with this Idempotency-Key is still running; retry shortly');
    if (holder?.state === 'completed') return replayOf(holder.response);

    let result: HttpResult;
    try {
      result = await run();
    } catch (error) {
      await deps.idempotency.release(claim).catch((e: unknown) => { logFailure('could not release an idempotency key', claim, e); });
      throw error;
    }
    // The request has had its effect: a failure to record it must not turn its answer into an error.
    const settle = storable(result.statusCode) ? deps.idempotency.complete(claim, storedOf(result)) : deps.idempotency.release(claim);
    await settle.catch((e: unknown) => { logFailure('could not record an idempotent answer', claim, e); });
    return result;
  };
}
