/** Stable machine codes; `shared/http` maps each to an HTTP status and the error body. */
export type ErrorCode =
  | 'validation_error'
  | 'invalid_state'
  | 'not_found'
  | 'method_not_allowed'
  | 'unauthorized'
  | 'forbidden'
  | 'conflict'
  | 'gone'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'quota_exceeded'
  | 'idempotency_key_reused'
  | 'request_in_progress'
  | 'internal_error';

/**
 * Why, more precisely than the code, for clients that must tell two errors of one code apart (the signing page
 * picks its screen by it; no client reads meaning out of the English message).
 */
export const ERROR_REASONS = [
  'link_invalid', 'link_expired', 'link_replaced', 'link_not_yet_valid',
  'envelope_voided', 'envelope_expired', 'envelope_declined', 'envelope_completed', 'envelope_sealing',
  'already_signed', 'already_declined', 'otp_required', 'consent_required', 'consent_given',
  'code_incorrect', 'code_expired', 'code_burnt', 'otp_locked', 'document_purged', 'token_invalid', 'token_expired', 'link_opened',
  // An authoring session that ended (idle or at its limit), or used on a route it does not open.
  'session_expired', 'session_scope',
  // A signed-in console user: one no application has invited (403), or a sender on an administrator's route (403).
  'user_unknown', 'role_forbidden',
  // An uploaded PDF refused (400 validation_error): what is wrong with it, or which limit it is over.
  'empty', 'not_pdf', 'encrypted', 'truncated', 'damaged', 'no_pages', 'locked',
  'page_limit', 'total_page_limit', 'decoded_size_limit', 'object_limit', 'time_limit', 'active_content',
  // A value sent for a field its condition hides (400); a signer's reassign on an envelope that does not allow it (403).
  'field_hidden', 'reassign_not_allowed',
  // A branding logo refused (400 validation_error): over 200 KB, or not a usable PNG or SVG.
  'logo_too_large', 'logo_invalid',
  // A signer's attachment refused (400): not a PDF, PNG or JPEG by its content; a format the field does not accept; a damaged image.
  'attachment_unrecognised', 'attachment_not_accepted', 'attachment_damaged',
] as const;
export type ErrorReason = (typeof ERROR_REASONS)[number];

/** Field path (`signers[0].email`) to the messages about it. */
export type FieldErrors = Record<string, string[]>;

export abstract class DomainError extends Error {
  abstract readonly code: ErrorCode;
  readonly errors: FieldErrors;
  readonly reason: ErrorReason | null;

  constructor(message: string, errors: FieldErrors = {}, reason: ErrorReason | null = null) {
    super(message);
    this.name = new.target.name;
    this.errors = errors;
    this.reason = reason;
  }
}

export class ValidationError extends DomainError {
  readonly code = 'validation_error';

  /** One offending field: `ValidationError.at('subject', 'must be at most 255 characters')`. */
  static at(path: string, message: string, reason: ErrorReason | null = null): ValidationError {
    return new ValidationError(`${path}: ${message}`, { [path]: [message] }, reason);
  }
}
export class InvalidState extends DomainError { readonly code = 'invalid_state'; }
export class NotFound extends DomainError { readonly code = 'not_found'; }
export class Unauthorized extends DomainError { readonly code = 'unauthorized'; }
export class Forbidden extends DomainError { readonly code = 'forbidden'; }
/** The path exists with other methods (decision 7); `allowed` becomes the Allow header. */
export class MethodNotAllowed extends DomainError {
  readonly code = 'method_not_allowed';

  constructor(message: string, readonly allowed: readonly string[]) {
    super(message);
  }
}
export class Conflict extends DomainError { readonly code = 'conflict'; }
export class Gone extends DomainError { readonly code = 'gone'; }
export class PayloadTooLarge extends DomainError { readonly code = 'payload_too_large'; }
export class UnsupportedMediaType extends DomainError { readonly code = 'unsupported_media_type'; }
/** The application's envelope quota for the period is used up and overage is not allowed (decision 30). */
export class QuotaExceeded extends DomainError { readonly code = 'quota_exceeded'; }
/** An Idempotency-Key reused for a different request (decision 32). */
export class IdempotencyKeyReused extends DomainError { readonly code = 'idempotency_key_reused'; }
/** The first request with this Idempotency-Key is still running; safe to retry (decision 32). */
export class RequestInProgress extends DomainError { readonly code = 'request_in_progress'; }

/** A used link of a signer whose envelope is complete: the 410 says where the signed copy is (decision 14). */
export class SignedAndComplete extends Gone {
  constructor(message: string, readonly downloadUrl: string) {
    super(message, {}, 'already_signed');
  }
}

/** A concurrent writer changed the envelope first; the use case re-reads and retries. */
export class ConcurrentModification extends Error {
  constructor(readonly envelopeId: string) {
    super(`envelope ${envelopeId} was modified concurrently`);
    this.name = 'ConcurrentModification';
  }
}

/** A commit skipped webhook events on subscriptions that changed since they were read: decided again, like a lost race. */
export class SubscriptionsChanged extends ConcurrentModification {
  constructor(envelopeId: string, readonly appId: string) {
    super(envelopeId);
    this.name = 'SubscriptionsChanged';
  }
}

/** Too many requests; `retryAfterSeconds` goes to the Retry-After header. */
export class RateLimited extends DomainError {
  readonly code = 'rate_limited';

  constructor(message: string, readonly retryAfterSeconds: number) {
    super(message);
  }
}
