/**
 * The kinds of token the service issues, all HS256 JWTs told apart by their `typ`: API access tokens and authoring
 * sessions (under JWT_SECRET), signing links, embedded-signing tickets, authoring tickets and download-portal links
 * (under LINK_SECRET). Each verifier accepts only its own kind, so one kind can never stand in for another.
 */
import { SignJWT, decodeJwt, jwtVerify, errors as joseErrors, type JWTPayload } from 'jose';
import { Unauthorized } from './errors.ts';
import { createHash, timingSafeEqual } from 'node:crypto';

/** The claims of a signing link, enough to mint the identical token again when the email goes out. */
export interface LinkClaims {
  jti: string;
  signerId: string;
  envelopeId: string;
  version: number;
  issuedAt: number; // epoch seconds
  expiresAt: number; // epoch seconds
}

/** The claims of an embedded signing URL's ticket. */
export interface EmbedClaims {
  jti: string;
  envelopeId: string;
  signerId: string;
  issuedAt: number;
  expiresAt: number;
}

export const ACCESS_TOKEN_SECONDS = 3600;
const ISSUER = 'esign-service';
const AUDIENCE = 'esign-api';

/** Who a bearer token stands for: an application through one of its clients, or a console user of it (`user`). */
export interface BearerPrincipal {
  appId: string;
  clientId: string;
  /** Set for an authoring session: the one draft or template it may touch (routes declare whether they take one). */
  authoring?: AuthoringScope;
  user?: { userId: string; email: string; role: 'admin' | 'sender' };
}

const keyOf = (secret: string) => new TextEncoder().encode(secret);

/** An HS256 access token for an application, valid one hour (decision 29). */
export async function issueAccessToken(secret: string, principal: BearerPrincipal, now: Date): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  return new SignJWT({ client_id: principal.clientId, typ: 'access' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setSubject(principal.appId)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ACCESS_TOKEN_SECONDS)
    .sign(keyOf(secret));
}

const MAX_CLOCK_SKEW_SECONDS = 60;

/** Verifies algorithm (HS256 only, so `none` and RS/ES confusion fail), signature, issuer, audience, expiry and issue time. */
export async function verifyAccessToken(secret: string, token: string, now: Date): Promise<BearerPrincipal> {
  try {
    const { payload } = await jwtVerify(token, keyOf(secret), {
      algorithms: ['HS256'], issuer: ISSUER, audience: AUDIENCE, currentDate: now, requiredClaims: ['exp', 'sub', 'iat'],
    });
    // Issued in the future beyond clock skew: not a token this service issued as it says (or a clock gone wrong).
    const issuedInFuture = (payload.iat ?? 0) > now.getTime() / 1000 + MAX_CLOCK_SKEW_SECONDS;
    if (payload.typ !== 'access' || typeof payload.client_id !== 'string' || !payload.sub || issuedInFuture) {
      throw new Unauthorized('The access token is not valid', {}, 'token_invalid');
    }
    return { appId: payload.sub, clientId: payload.client_id };
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) {
      // Say when, by the service's clock: locally `POST /_local/clock` moves it, which expires tokens with no hour passing.
      const expiredAt = typeof error.payload.exp === 'number' ? new Date(error.payload.exp * 1000).toISOString() : 'an earlier time';
      throw new Unauthorized(`The access token has expired (at ${expiredAt}; the service time is ${now.toISOString()}): request a new one from POST /oauth/token`, {}, 'token_expired');
    }
    if (error instanceof Unauthorized) throw error;
    throw new Unauthorized('The access token is not valid', {}, 'token_invalid');
  }
}

type LinkKind = 'embed' | 'signing' | 'download' | 'authoring-ticket';

/**
 * A link token: HS256 under the link secret, its kind in `typ`, the envelope in `env`. HS256 is deterministic, so
 * minting the same claims again gives the same token (an invitation email re-mints it): the token itself is never stored.
 */
function mintLink(secret: string, typ: LinkKind, claims: { envelopeId: string; subject: string; jti: string; issuedAt: number; expiresAt: number }, extra: Record<string, unknown> = {}): Promise<string> {
  return new SignJWT({ env: claims.envelopeId, ...extra, typ })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.subject)
    .setJti(claims.jti)
    .setIssuedAt(claims.issuedAt)
    .setExpirationTime(claims.expiresAt)
    .sign(new TextEncoder().encode(secret));
}

/** What a link of each kind is called in the 401 that refuses it. */
const LINK_NAMES: Record<LinkKind, { invalid: string; expired: string }> = {
  embed: { invalid: 'This signing link is not valid', expired: 'This embedded signing link has expired; ask for a new one' },
  signing: { invalid: 'This signing link is not valid', expired: 'This signing link has expired' },
  download: { invalid: 'This download link is not valid', expired: 'This download link has expired' },
  'authoring-ticket': { invalid: 'This authoring link is not valid', expired: 'This authoring link has expired unopened; ask for a new one' },
};

/**
 * Checks a link token's signature (HS256 only), kind, envelope, subject and expiry (unless `ignoreExpiry`), and
 * `accept` on the rest of its claims; any failure is a 401 that says which.
 */
async function verifyLink(secret: string, token: string, now: Date, typ: LinkKind, accept: (payload: JWTPayload) => boolean, ignoreExpiry = false): Promise<JWTPayload & { env: string; sub: string }> {
  const names = LINK_NAMES[typ];
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), {
      algorithms: ['HS256'], currentDate: ignoreExpiry ? new Date(0) : now, requiredClaims: ['exp', 'sub'],
    });
    if (payload.typ !== typ || typeof payload.env !== 'string' || !payload.sub || !accept(payload)) throw new Unauthorized(names.invalid, {}, 'link_invalid');
    return { ...payload, env: payload.env, sub: payload.sub };
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) throw new Unauthorized(names.expired, {}, 'link_expired');
    if (error instanceof Unauthorized) throw error;
    throw new Unauthorized(names.invalid, {}, 'link_invalid');
  }
}

/** The ticket in an embedded signing URL (decision 36): its own kind, 5 minutes. */
export const mintEmbedToken = (secret: string, claims: EmbedClaims) => mintLink(secret, 'embed', { ...claims, subject: claims.signerId });

export const embedUrl = (signingBase: string, token: string) => `${signingBase}/embed/${token}`;

/**
 * Checks a ticket's signature and kind; its expiry too unless `expired` allows it (the page itself, whose frame
 * policy depends only on whose envelope it is).
 */
export async function verifyEmbedToken(secret: string, token: string, now: Date, expired: 'refuse' | 'allow' = 'refuse'): Promise<{ envelopeId: string; signerId: string; jti: string }> {
  const payload = await verifyLink(secret, token, now, 'embed', (p) => Boolean(p.jti), expired === 'allow');
  return { envelopeId: payload.env, signerId: payload.sub, jti: payload.jti ?? '' };
}

export const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** The signing link token for `claims`: the same claims always give the same token. */
export const mintSigningToken = (secret: string, claims: LinkClaims) => mintLink(secret, 'signing', { ...claims, subject: claims.signerId }, { ver: claims.version });

export const signingUrl = (signingBase: string, token: string) => `${signingBase}/sign/${token}`;

export interface VerifiedLink {
  envelopeId: string;
  signerId: string;
  version: number;
}

export async function verifySigningToken(secret: string, token: string, now: Date): Promise<VerifiedLink> {
  const payload = await verifyLink(secret, token, now, 'signing', (p) => Boolean(p.jti) && typeof p.ver === 'number');
  return { envelopeId: payload.env, signerId: payload.sub, version: payload.ver as number };
}

/** Constant-time equality of two hex digests. */
export function sameDigest(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}

/** What a download-portal link carries: the envelope and which recipient's link it is. */
export interface DownloadClaims {
  envelopeId: string;
  linkId: string;
  issuedAt: number;
  expiresAt: number;
}

/** Download links are minted like signing links, their own kind; the link id is their subject. */
export const mintDownloadToken = (secret: string, claims: DownloadClaims) => mintLink(secret, 'download', { ...claims, subject: claims.linkId, jti: claims.linkId });

export async function verifyDownloadToken(secret: string, token: string, now: Date): Promise<{ envelopeId: string; linkId: string }> {
  const payload = await verifyLink(secret, token, now, 'download', () => true);
  return { envelopeId: payload.env, linkId: payload.sub };
}

export const downloadUrl = (signingBase: string, token: string) => `${signingBase}/download/${token}`;

/** What an authoring session may touch: one draft envelope or one template, and how much of it. */
export type AuthoringKind = 'envelope' | 'template';
export type AuthoringMode = 'fields' | 'full';

/** The claims of an authoring URL's ticket: which resource, for whom, and what the page opens with. */
export interface AuthoringTicketClaims {
  jti: string;
  appId: string;
  kind: AuthoringKind;
  resourceId: string;
  mode: AuthoringMode;
  locale: string | null;
  returnUrl: string | null;
  issuedAt: number;
  expiresAt: number;
}

/** The ticket in an authoring URL: its own kind, under the link secret like the embedded-signing ticket. */
export const mintAuthoringTicket = (secret: string, claims: AuthoringTicketClaims) => mintLink(secret, 'authoring-ticket',
  { envelopeId: claims.resourceId, subject: claims.appId, jti: claims.jti, issuedAt: claims.issuedAt, expiresAt: claims.expiresAt },
  { knd: claims.kind, mode: claims.mode, loc: claims.locale, ret: claims.returnUrl });

export const authoringUrl = (signingBase: string, token: string) => `${signingBase}/author/${token}`;

const isKind = (value: unknown): value is AuthoringKind => value === 'envelope' || value === 'template';
const isMode = (value: unknown): value is AuthoringMode => value === 'fields' || value === 'full';
const stringOrNull = (value: unknown) => (typeof value === 'string' ? value : null);

/** Checks an authoring ticket; its expiry too unless `expired` allows it (the page's frame policy needs only whose it is). */
export async function verifyAuthoringTicket(secret: string, token: string, now: Date, expired: 'refuse' | 'allow' = 'refuse'): Promise<AuthoringTicketClaims> {
  const payload = await verifyLink(secret, token, now, 'authoring-ticket', (p) => Boolean(p.jti) && isKind(p.knd) && isMode(p.mode), expired === 'allow');
  return {
    jti: payload.jti ?? '', appId: payload.sub, kind: payload.knd as AuthoringKind, resourceId: payload.env, mode: payload.mode as AuthoringMode,
    locale: stringOrNull(payload.loc), returnUrl: stringOrNull(payload.ret), issuedAt: payload.iat ?? 0, expiresAt: payload.exp ?? 0,
  };
}

/** An opened authoring session: the application it acts for, the one resource it may touch, and since when. */
export interface AuthoringScope {
  kind: AuthoringKind;
  id: string;
  mode: AuthoringMode;
  /** Epoch seconds the ticket was opened: the session ends at most AUTHORING_SESSION_MAX_SECONDS after. */
  openedAt: number;
}

export interface AuthoringPrincipal extends BearerPrincipal {
  authoring: AuthoringScope;
}

/** A session token: an hour without use ends it; none lives past eight hours from the opening. */
export const AUTHORING_IDLE_SECONDS = 3600;
export const AUTHORING_SESSION_MAX_SECONDS = 8 * 3600;

/** When a session minted at `now` for a session opened at `openedAt` expires (epoch seconds). */
export const authoringExpiry = (openedAt: number, now: Date) => Math.min(Math.floor(now.getTime() / 1000) + AUTHORING_IDLE_SECONDS, openedAt + AUTHORING_SESSION_MAX_SECONDS);

/** An authoring session token, sent as a bearer token like an access token but of its own kind. */
export async function issueAuthoringSession(secret: string, principal: AuthoringPrincipal, now: Date): Promise<{ token: string; expiresAt: number }> {
  const iat = Math.floor(now.getTime() / 1000);
  const expiresAt = authoringExpiry(principal.authoring.openedAt, now);
  const { kind, id, mode, openedAt } = principal.authoring;
  const token = await new SignJWT({ client_id: principal.clientId, typ: 'authoring', knd: kind, rid: id, mode, oat: openedAt })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setSubject(principal.appId)
    .setIssuedAt(iat)
    .setExpirationTime(expiresAt)
    .sign(keyOf(secret));
  return { token, expiresAt };
}

/** Whether a bearer token says it is an authoring session (unverified: only to pick the verifier). */
export function claimsAuthoring(token: string): boolean {
  try {
    return decodeJwt(token).typ === 'authoring';
  } catch {
    return false;
  }
}

export async function verifyAuthoringSession(secret: string, token: string, now: Date): Promise<AuthoringPrincipal> {
  try {
    const { payload } = await jwtVerify(token, keyOf(secret), {
      algorithms: ['HS256'], issuer: ISSUER, audience: AUDIENCE, currentDate: now, requiredClaims: ['exp', 'sub', 'iat'],
    });
    const { client_id: clientId, knd, rid, mode, oat } = payload;
    const valid = payload.typ === 'authoring' && typeof clientId === 'string' && payload.sub && isKind(knd) && typeof rid === 'string' && isMode(mode) && typeof oat === 'number';
    // A token claiming a longer life than any session has was not minted here.
    if (!valid || (payload.exp ?? 0) > oat + AUTHORING_SESSION_MAX_SECONDS) throw new Unauthorized('The authoring session is not valid', {}, 'token_invalid');
    return { appId: payload.sub ?? '', clientId, authoring: { kind: knd, id: rid, mode, openedAt: oat } };
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) throw new Unauthorized('The authoring session has ended: open a new authoring URL', {}, 'session_expired');
    if (error instanceof Unauthorized) throw error;
    throw new Unauthorized('The authoring session is not valid', {}, 'token_invalid');
  }
}
