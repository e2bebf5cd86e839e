/**
 * What the pages do with an error, from its status and stable `reason` code (shared/kernel/errors.ts), never from
 * its message, which is English, for people, and free to change. Pure: no DOM, no text.
 */
import type { ApiError } from './api-error.ts';
import type { ErrorReason } from './api-types.ts';

/** A signing link that cannot be used, or a request that got no useful answer: each has a screen of its own. */
export type LinkProblem =
  | 'expired' | 'voided' | 'signed' | 'declined' | 'replaced' | 'locked' | 'not_yet' | 'closed' | 'invalid' | 'network' | 'unavailable';

/**
 * Where a signing error leads: a screen of its own; back through the gates (the context is read again, so another
 * tab's step or a missing one is shown as it is); or a message where the signer acted (a wrong code, a bad value).
 */
export type SigningRoute = { to: 'screen'; problem: LinkProblem } | { to: 'gates' } | { to: 'inline' };

/** Every reason has a decision here: a new reason in the shared list does not type-check until it gets one. */
const SIGNING: Record<ErrorReason, SigningRoute> = {
  link_invalid: { to: 'screen', problem: 'invalid' },
  link_expired: { to: 'screen', problem: 'expired' },
  link_replaced: { to: 'screen', problem: 'replaced' },
  link_not_yet_valid: { to: 'screen', problem: 'not_yet' },
  link_opened: { to: 'screen', problem: 'invalid' },
  envelope_voided: { to: 'screen', problem: 'voided' },
  envelope_expired: { to: 'screen', problem: 'expired' },
  envelope_declined: { to: 'screen', problem: 'closed' },
  envelope_completed: { to: 'screen', problem: 'closed' },
  envelope_sealing: { to: 'screen', problem: 'closed' },
  already_signed: { to: 'screen', problem: 'signed' },
  already_declined: { to: 'screen', problem: 'declined' },
  otp_required: { to: 'gates' },
  consent_required: { to: 'gates' },
  consent_given: { to: 'gates' },
  code_incorrect: { to: 'inline' },
  code_expired: { to: 'inline' },
  code_burnt: { to: 'inline' },
  // Too many codes on this link: only the sender's new link helps, and it brings the signer back here
  otp_locked: { to: 'screen', problem: 'locked' },
  // Not answered on signing links; by status below if they ever are
  document_purged: { to: 'screen', problem: 'unavailable' },
  token_invalid: { to: 'screen', problem: 'invalid' },
  token_expired: { to: 'screen', problem: 'invalid' },
  // Authoring sessions: never answered on signing links
  session_expired: { to: 'screen', problem: 'invalid' },
  session_scope: { to: 'screen', problem: 'invalid' },
  // A console user's refusals: never answered on signing links
  user_unknown: { to: 'screen', problem: 'invalid' }, role_forbidden: { to: 'screen', problem: 'invalid' },
  // An uploaded PDF refused (on signing links: a signer's attachment, shown beside its field)
  empty: { to: 'inline' }, not_pdf: { to: 'inline' }, encrypted: { to: 'inline' }, truncated: { to: 'inline' },
  damaged: { to: 'inline' }, no_pages: { to: 'inline' }, locked: { to: 'inline' }, page_limit: { to: 'inline' },
  total_page_limit: { to: 'inline' }, decoded_size_limit: { to: 'inline' }, object_limit: { to: 'inline' },
  time_limit: { to: 'inline' }, active_content: { to: 'inline' },
  // A value for a hidden field, or a reassign the envelope does not allow: said where the signer acted
  field_hidden: { to: 'inline' }, reassign_not_allowed: { to: 'inline' },
  // A branding logo refused: a console answer, never a signing link's
  logo_too_large: { to: 'inline' }, logo_invalid: { to: 'inline' },
  attachment_unrecognised: { to: 'inline' }, attachment_not_accepted: { to: 'inline' }, attachment_damaged: { to: 'inline' },
};

const known = <T>(table: Record<ErrorReason, T>, reason: string | null): T | undefined =>
  reason !== null && Object.hasOwn(table, reason) ? table[reason as ErrorReason] : undefined;

/**
 * The route for an error of a signing request; without a known reason the status decides. No answer at all is
 * inline: the signer's entries stay on the page and the same action can be tried again.
 */
export function signingRoute(error: ApiError): SigningRoute {
  const byReason = known(SIGNING, error.reason);
  if (byReason) return byReason;
  if (error.status === 401) return { to: 'screen', problem: 'invalid' };
  if (error.status === 410) return { to: 'screen', problem: 'signed' }; // a used link
  return { to: 'inline' };
}

/** For the first read of a link, where there is no form to show a message in: inline errors get a screen too. */
export function openingProblem(error: ApiError): LinkProblem {
  const route = signingRoute(error);
  if (route.to === 'screen') return route.problem;
  return error.status === 0 ? 'network' : 'unavailable';
}

/** Whether the link is done with for good, so the entries kept for it can go (a replaced link's signer keeps theirs). */
export const isFinal = (problem: LinkProblem) =>
  problem === 'signed' || problem === 'declined' || problem === 'voided' || problem === 'expired' || problem === 'closed';

/** The download portal's screens. */
export type DownloadProblem = 'purged' | 'expired' | 'invalid' | 'network' | 'unavailable';

export function downloadProblem(error: ApiError): DownloadProblem {
  if (error.reason === 'document_purged') return 'purged';
  if (error.reason === 'link_expired') return 'expired';
  if (error.reason === 'link_invalid') return 'invalid';
  if (error.status === 0) return 'network';
  if (error.status === 410) return 'purged';
  if (error.status === 401) return 'invalid';
  return 'unavailable';
}
