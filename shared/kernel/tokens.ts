/**
 * The four kinds of token the service issues, all HS256 JWTs told apart by their `typ`: API access tokens (under
 * JWT_SECRET, one hour), signing links, embedded-signing tickets and download-portal links (under LINK_SECRET).
 * Each verifier accepts only its own kind, so one kind can never stand in for another.
 */
import { SignJWT, jwtVerify, errors as joseErrors, type JWTPayload } from 'jose';
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

type LinkKind = 'embed' | 'signing' | 'download';

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
