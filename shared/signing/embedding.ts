/**
 * Embedded signing (decision 36): a URL for a signer of the current routing group, valid 5 minutes until first
 * opened; opening it spends it and hands the page the signer's signing link. Pure: no I/O.
 */
import type { AuditDraft } from '../kernel/audit-chain.ts';
import { changeOf, linkClaimsFor, type Ctx, type EnvelopeChange } from '../envelopes/envelope.ts';
import { Gone, InvalidState, NotFound, Unauthorized, ValidationError } from '../kernel/errors.ts';
import type { Envelope, Signer } from '../kernel/model.ts';

import { updateSigner } from './signing.ts';
import type { EmbedClaims, LinkClaims } from '../kernel/tokens.ts';

export const EMBED_URL_SECONDS = 300;
export const MAX_EMBED_ORIGINS = 20;

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** An origin that may frame the page: `https://host[:port]`, or plain http on a loopback host (local development). */
export function originProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an origin such as https://app.example.com';
  }
  if (url.origin !== value) return `must be an origin only (scheme, host and port; no path or trailing slash): ${url.origin}`;
  if (url.protocol === 'https:') return null;
  return url.protocol === 'http:' && LOOPBACK.has(url.hostname) ? null : 'must be an HTTPS origin';
}

/** Where the page goes when it is not framed: an https URL (or http on a loopback host). */
export function returnUrlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname))) return null;
  return 'must be an HTTPS URL';
}

/** The console's `embedOrigins`: at most 20 distinct origins, each checked. */
export function checkEmbedOrigins(origins: readonly string[]): string[] {
  if (origins.length > MAX_EMBED_ORIGINS) throw ValidationError.at('embedOrigins', `at most ${String(MAX_EMBED_ORIGINS)} origins`);
  const errors: Record<string, string[]> = {};
  origins.forEach((origin, i) => {
    const problem = originProblem(origin);
    if (problem) errors[`embedOrigins[${String(i)}]`] = [problem];
  });
  if (Object.keys(errors).length > 0) throw new ValidationError('Some origins are not valid', errors);
  return [...new Set(origins)];
}

const live = (envelope: Envelope) => envelope.status === 'sent' || envelope.status === 'in_progress';

/** A new embedded URL for the signer: the previous unopened one stops working. */
export function issueEmbedTicket(envelope: Envelope, signerId: string, returnUrl: string | null, ctx: Ctx): { change: EnvelopeChange; claims: EmbedClaims } {
  const signer = envelope.signers.find((s) => s.id === signerId);
  if (!signer) throw new NotFound('Signer not found on this envelope');
  const badReturn = returnUrl === null ? null : returnUrlProblem(returnUrl);
  if (badReturn) throw ValidationError.at('returnUrl', badReturn);
  if (!live(envelope)) throw new InvalidState(`Cannot sign embedded: the envelope is ${envelope.status}`);
  if (signer.status === 'pending') throw new InvalidState("This signer's routing group is not current yet");
  if (signer.status === 'signed' || signer.status === 'declined') throw new InvalidState(`Cannot sign embedded: the signer has ${signer.status}`);
  const issuedAt = Math.floor(ctx.now.getTime() / 1000);
  const claims: EmbedClaims = { jti: ctx.nextId(), envelopeId: envelope.id, signerId, issuedAt, expiresAt: issuedAt + EMBED_URL_SECONDS };
  const after = updateSigner(envelope, signerId, {
    embedTicket: { jti: claims.jti, expiresAt: new Date(claims.expiresAt * 1000).toISOString(), openedAt: null, returnUrl },
  });
  const draft: AuditDraft = {
    event: 'signer.embedded_url_issued', actor: ctx.meta.actor ?? 'system', ip: ctx.meta.ip, userAgent: ctx.meta.userAgent,
    detail: { signerId, expiresAt: new Date(claims.expiresAt * 1000).toISOString() },
  };
  return { change: changeOf(envelope, after, [draft], [], ctx), claims };
}

/** A link with at least this long to run is handed on as it is; else a new one is minted (the old one stops working). */
const REUSE_MARGIN_SECONDS = 3600;

export function reusableLink(signer: Signer, ctx: Ctx): LinkClaims | null {
  const link = signer.link;
  if (!link || !signer.linkHash || link.version !== signer.tokenVersion) return null;
  return link.expiresAt - Math.floor(ctx.now.getTime() / 1000) > REUSE_MARGIN_SECONDS ? link : null;
}

/**
 * Opening the URL: only the latest ticket, only once, only while the signer can still sign. The change marks it
 * opened; `fresh` is set when the signer needs a new link (the use case mints it and records its hash).
 */
export function openEmbedTicket(envelope: Envelope, claims: Pick<EmbedClaims, 'jti' | 'signerId'>, ctx: Ctx): { change: EnvelopeChange; signer: Signer; fresh: LinkClaims | null } {
  const signer = envelope.signers.find((s) => s.id === claims.signerId);
  if (envelope.status === 'voided') throw new Unauthorized('This signing link is no longer valid: the envelope was voided', {}, 'envelope_voided');
  if (envelope.status === 'expired') throw new Unauthorized('This envelope has expired', {}, 'envelope_expired');
  if (envelope.status === 'declined') throw new Unauthorized('This envelope was declined', {}, 'envelope_declined');
  if (envelope.status === 'completed') throw new Unauthorized('This envelope is complete', {}, 'envelope_completed');
  const ticket = signer?.embedTicket;
  if (!signer || ticket?.jti !== claims.jti) throw new Unauthorized('This signing link was replaced by a newer one', {}, 'link_replaced');
  if (ticket.openedAt) throw new Gone('This signing link was already opened; ask for a new one', {}, 'link_opened');
  if (signer.status === 'signed') throw new Gone('The signer has already signed', {}, 'already_signed');
  if (signer.status === 'declined') throw new Gone('The signer has declined', {}, 'already_declined');
  const reused = reusableLink(signer, ctx);
  const fresh = reused ? null : linkClaimsFor(envelope, signer, ctx);
  const after = updateSigner(envelope, signer.id, { embedTicket: { ...ticket, openedAt: ctx.now.toISOString() } });
  return { change: changeOf(envelope, after, [], [], ctx), signer, fresh };
}

/** Records a freshly minted link on the signer (no message: the page receives it). */
export function withSignerLink(change: EnvelopeChange, claims: LinkClaims, tokenHash: string): EnvelopeChange {
  const after = updateSigner(change.after, claims.signerId, { link: claims, linkHash: tokenHash, tokenVersion: claims.version });
  return { ...change, after };
}
