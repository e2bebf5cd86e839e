/** What a request costs against a budget: the count so far in the current window and when that window ends. */
export interface WindowCount {
  count: number;
  /** Epoch milliseconds at which the window closes and the count starts again. */
  resetAtMs: number;
}

/** Atomic request counters in fixed windows, one per key (an application, a link token, an address). */
export interface RateLimiter {
  /** Counts one request against `key`; a window opens with the first request after the previous one closed. */
  hit(key: string, windowSeconds: number, now: Date): Promise<WindowCount>;
}

/** The stored answer to a request, replayed for a retry with the same Idempotency-Key. */
export interface StoredResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
  isBase64Encoded: boolean;
}

export type IdempotencyRecord =
  | { state: 'in_progress'; fingerprint: string }
  | { state: 'completed'; fingerprint: string; response: StoredResponse };

export interface IdempotencyClaim {
  /** `<scope>#<key>`: (application, key) for bearer calls, (link token, key) for signer calls (decision 32). */
  id: string;
  fingerprint: string;
  /** Identifies this claim, so a request whose lock was taken over cannot overwrite its successor. */
  owner: string;
  now: Date;
  /** How long an unfinished claim blocks others before it counts as abandoned. */
  lockSeconds: number;
  /** How long the record, and so the replay, lives (24 h). */
  expiresInSeconds: number;
}

export interface IdempotencyStore {
  /**
   * Claims the key with a conditional write. Returns undefined when this request now owns it; otherwise the record
   * that holds it (in progress, or completed with its answer). Expired records and abandoned claims are taken over.
   */
  claim(claim: IdempotencyClaim): Promise<IdempotencyRecord | undefined>;
  /**
   * Stores the answer for replays; a no-op when the claim is no longer this request's. `released`: the answer is
   * too large to keep (a retry runs again), and the key was given up.
   */
  complete(claim: IdempotencyClaim, response: StoredResponse): Promise<'stored' | 'released'>;
  /** Gives the key up (the request failed with a 5xx or a 429), so a retry runs again. */
  release(claim: IdempotencyClaim): Promise<void>;
}
