/**
 * The document's own prose: the overview a reader meets first in the rendered reference (/docs), and the error body's
 * table of codes, written out from the code-to-status map so it cannot fall behind it.
 */
import { ERROR_REASONS } from '#shared/kernel/errors.ts';
import { STATUS } from '#shared/http/http-errors.ts';

export const API_DESCRIPTION = [
  'Envelopes, signers, sealed PDFs and a hash-chained audit trail.',
  '',
  '**Flow.** Get a token (`POST /oauth/token`, client credentials), create an envelope with its PDF and signers ' +
  '(`POST /v1/envelopes`: multipart with the PDF, or JSON and then `POST /v1/envelopes/{id}/document`), place fields, ' +
  'send it (`POST /v1/envelopes/{id}/send`). Each signer follows their link: context, one-time code, consent, sign. When the last ' +
  'signer signs, the PDF is sealed in the background and the envelope becomes `completed`; then ' +
  '`GET /v1/envelopes/{id}/document?kind=sealed` returns the sealed PDF (409 before). Subscribe to `envelope.completed` (see Webhooks) ' +
  'instead of polling.',
  '',
  '**Identifiers** are UUIDs (v7, time-ordered). Input also accepts the prefixed form (`env_<uuid>`, `sgn_`, `doc_`, `fld_`, `whk_`, ' +
  '`dlv_`, `con_`); answers always use the plain UUID.',
  '',
  '**Two variants, one API.** Where the published specification shows two forms (multipart or JSON creation, flat or wrapped ' +
  'webhook bodies, both error shapes, `retentionUntil` and `retention_until`), both are accepted and every answer carries both.',
  '',
  '**Errors** are one JSON body (schema `Error`) whose `error` is a stable machine code; `reason` tells apart causes of one code. ' +
  'Never parse `message`.',
  '',
  '**Rate limits.** Every answer carries `X-RateLimit-Limit`, `-Remaining` and `-Reset`; past the budget, 429 with `Retry-After`. ' +
  '**Idempotency.** POSTs with a credential accept `Idempotency-Key`: a retry with the same key gets the stored answer.',
].join('\n');

/** What each machine code means, with its status. */
const MEANING: Record<keyof typeof STATUS, string> = {
  validation_error: 'the request is malformed or a value is out of range; `errors` says which field and why',
  invalid_state: 'the envelope\'s state does not allow it (send twice, change a sent envelope, void a terminal one)',
  unauthorized: 'no, an expired or an invalid credential (bearer token, link token)',
  forbidden: 'the credential is valid but not allowed here',
  quota_exceeded: 'the plan\'s monthly envelope limit is used up',
  not_found: 'no such resource for this application (another application\'s envelope is 404 too)',
  method_not_allowed: 'the path exists but not with this method (`Allow` lists the methods)',
  conflict: 'the current state conflicts (the sealed PDF before completion, a concurrent change: retry)',
  idempotency_key_reused: 'the Idempotency-Key was used for a different request',
  request_in_progress: 'the first request with this Idempotency-Key is still running; retry shortly',
  gone: 'no longer available (a used link, a purged PDF)',
  payload_too_large: 'the body or file is too large (25 MB per PDF)',
  unsupported_media_type: 'this endpoint does not take the request\'s Content-Type',
  rate_limited: 'over the request budget; wait `Retry-After` seconds',
  internal_error: 'an unexpected failure; quote `requestId`',
};

export function errorDescription(): string {
  const codes = Object.entries(STATUS).map(([code, status]) => `\`${code}\` (${String(status)}): ${MEANING[code as keyof typeof STATUS]}`);
  return [
    'The one error body, which is both published shapes: `error`/`message`/`details` and the problem-style `type`/`title`/`status`/`errors`, ' +
    'plus `requestId` (quote it when reporting a problem) and `reason`.',
    `Codes: ${codes.join('; ')}.`,
    `Reasons: ${ERROR_REASONS.map((reason) => `\`${reason}\``).join(', ')}.`,
  ].join(' ');
}
