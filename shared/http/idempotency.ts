import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { IdempotencyKeyReused, RequestInProgress, ValidationError } from '#shared/kernel/errors.ts';
import type { Clock, Ids, Logger } from '#shared/ports/services.ts';
import type { IdempotencyClaim, IdempotencyStore, StoredResponse } from '#shared/ports/traffic.ts';
import type { Caller } from './caller.ts';
import { requestFingerprint } from './fingerprint.ts';
import type { HttpResult } from './responses.ts';

export interface IdempotencyDeps {
  clock: Clock;
  ids: Ids;
  idempotency: IdempotencyStore;
  logger: Logger;
}

/** A replay within 24 hours returns the original answer (decision 32). */
const RECORD_SECONDS = 24 * 3600;
/** Longer than any API request may run (API Gateway stops waiting at 30 s); an older unfinished claim was abandoned. */
const LOCK_SECONDS = 60;
const KEY = /^[\x21-\x7e]{1,255}$/;

export const REPLAYED_HEADER = 'idempotent-replayed';

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

/** The answer as kept for repeats, with the `withheld` fields of a JSON body set to null. */
function storedOf(result: HttpResult, withheld: readonly string[]): StoredResponse {
  const { 'x-request-id': _requestId, ...headers } = result.headers;
  return { statusCode: result.statusCode, headers, body: withholding(result.body ?? '', withheld), isBase64Encoded: result.isBase64Encoded ?? false };
}

function withholding(body: string, withheld: readonly string[]): string {
  if (withheld.length === 0 || !body.startsWith('{')) return body;
  const value = JSON.parse(body) as Record<string, unknown>;
  for (const field of withheld) if (field in value) value[field] = null;
  return JSON.stringify(value);
}

function replayOf(stored: StoredResponse): HttpResult {
  return { ...stored, headers: { ...stored.headers, [REPLAYED_HEADER]: 'true' } };
}

/** What `begin` found: run the request under this claim, or answer the stored replay. */
export type Begun = { claim: IdempotencyClaim } | { replay: HttpResult };

/**
 * Runs a POST that carries an Idempotency-Key at most once per (scope, key): a conditional put claims the key, so of
 * concurrent first requests exactly one runs; the others are told it is in progress, and later ones get the replay.
 * `begin` claims (or finds the replay), `settle` records the answer (or frees the key for a retry).
 */
export function idempotency(deps: IdempotencyDeps) {
  async function begin(caller: Caller, event: APIGatewayProxyEventV2): Promise<Begun | undefined> {
    const key = event.headers['idempotency-key'];
    const scope = scopeOf(caller);
    if (event.requestContext.http.method !== 'POST' || key === undefined || !scope) return undefined;
    if (!KEY.test(key)) throw ValidationError.at('Idempotency-Key', 'must be 1 to 255 visible ASCII characters');
    const claim: IdempotencyClaim = {
      id: `${scope}#${key}`, fingerprint: requestFingerprint(event), owner: deps.ids.next(), now: deps.clock.now(),
      lockSeconds: LOCK_SECONDS, expiresInSeconds: RECORD_SECONDS,
    };
    const holder = await deps.idempotency.claim(claim);
    if (holder && holder.fingerprint !== claim.fingerprint) {
      throw new IdempotencyKeyReused('This Idempotency-Key was used for a different request; use a new key for a new request');
    }
    if (holder?.state === 'in_progress') throw new RequestInProgress('A request with this Idempotency-Key is still running; retry shortly');
    if (holder?.state === 'completed') return { replay: replayOf(holder.response) };
    return { claim };
  }

  /** The request has had its effect (or none): a failure to record that must not turn its answer into an error. */
  async function settle(claim: IdempotencyClaim, result: HttpResult | undefined, withheld: readonly string[] = []): Promise<void> {
    const done = result && storable(result.statusCode)
      ? deps.idempotency.complete(claim, storedOf(result, withheld)).then((outcome) => {
        if (outcome === 'released') deps.logger.warn('idempotent response too large to store; the key is released', { id: claim.id });
      })
      : deps.idempotency.release(claim);
    await done.catch((error: unknown) => {
      deps.logger.error('could not record an idempotent answer; the key is released to expiry', { id: claim.id, error: (error as Error | undefined)?.message });
    });
  }

  return { begin, settle };
}
