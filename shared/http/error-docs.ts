import { MAX_ENVELOPE_PAGES } from '#shared/kernel/model.ts';
import { OTP_LIFETIME_CODES, OTP_LIFETIME_WRONG_TRIES } from '#shared/signing/otp-budget.ts';
import { MAX_DECODED_BYTES, MAX_OBJECTS, MAX_PAGES, MAX_STREAM_BYTES, TEXT_TIME_LIMIT_MS } from '#shared/pdf/pdf-limits.ts';

/**
 * `n` with thousands separators and at most 3 decimals, as `toLocaleString('en')` writes it. These texts are built
 * when a route's module loads, and the first locale-aware call initialises ICU, about 10 ms of every cold start.
 */
export function grouped(n: number): string {
  const [whole = '', fraction] = String(Number(n.toFixed(3))).split('.');
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${fraction ? `.${fraction}` : ''}`;
}

/** Error meanings several routes document the same way (each route's `errors` in its declaration). */
export const CONCURRENT = 'Another request changed the envelope at the same time; retry';
export const LINK_UNUSABLE =
  'The link is invalid, expired or replaced by a newer one, or the envelope is voided, declined or expired; or the link is locked after too many ' +
  `one-time codes (reason \`otp_locked\`: ${String(OTP_LIFETIME_WRONG_TRIES)} wrong codes or ${String(OTP_LIFETIME_CODES)} codes sent over its life; the sender's resend unlocks it)`;
export const LINK_USED = 'The link has been used: the signer already signed or declined (a link is single-use)';
export const LINK_BEFORE_OTP = `${LINK_UNUSABLE}; or the one-time code is not verified yet`;
/** What a link locked after too many codes brings about (the otp routes' descriptions). */
export const OTP_LOCK_EFFECTS = '401 with reason `otp_locked` on every signing route, audit event `signer.otp_locked`, and an email to the sender ' +
  '(`createdBy`, when it is an email address) until the sender resends the link';
export const NO_ENVELOPE = 'No such envelope for this application';
export const PDF_HEADERS = {
  sha256: { description: 'SHA-256 of the PDF, lowercase hex', schema: { type: 'string', pattern: '^[0-9a-f]{64}$' } },
};
export const DOWNLOAD_LINK_UNUSABLE = 'The download link is invalid or expired';
export const SEALED_PURGED = 'The sealed PDF was deleted at the end of its retention period';
/** What a refused PDF's 400 says in `reason` (a PDF route's 400 description ends with this). */
export const PDF_REFUSED = `a PDF is refused with its \`reason\`: \`not_pdf\`, \`encrypted\`, \`truncated\`, \`damaged\`, \`no_pages\`, \`locked\`; \`page_limit\` (more than ${grouped(MAX_PAGES)} pages), \`total_page_limit\` (more than ${grouped(MAX_ENVELOPE_PAGES)} pages together), \`decoded_size_limit\` (streams that decompress to more than ${String(MAX_STREAM_BYTES / 2 ** 20)} MB each or ${String(MAX_DECODED_BYTES / 2 ** 20)} MB together), \`object_limit\` (more than ${grouped(MAX_OBJECTS)} objects), \`time_limit\` (text not read within ${String(TEXT_TIME_LIMIT_MS / 1000)} s), \`active_content\` (JavaScript or launch actions, unless the application allows them)`;
