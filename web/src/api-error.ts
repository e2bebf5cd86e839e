/** The error of an API call: no DOM and no fetch here, so pure modules and their tests can use it. */
import type { ErrorReason } from './api-types.ts';

/** An error answer, or no answer (status 0). `reason` says why where one code has several causes; never read `message`. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly reason: ErrorReason | null;
  readonly errors: Record<string, string[]>;
  readonly retryAfterSeconds: number | null;
  /** A used link of a completed envelope: the signer's download page. */
  readonly downloadUrl: string | null;

  constructor(init: { status: number; code: string; message: string; reason?: ErrorReason | null; errors?: Record<string, string[]>; retryAfterSeconds?: number | null; downloadUrl?: string | null }) {
    super(init.message);
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code;
    this.reason = init.reason ?? null;
    this.errors = init.errors ?? {};
    this.retryAfterSeconds = init.retryAfterSeconds ?? null;
    this.downloadUrl = init.downloadUrl ?? null;
  }
}

/** Whatever was thrown, as an ApiError: anything else means the request got no answer. */
export const asApiError = (error: unknown): ApiError =>
  error instanceof ApiError ? error : new ApiError({ status: 0, code: 'network', message: error instanceof Error ? error.message : String(error) });
