import { createHash, timingSafeEqual } from 'node:crypto';
import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';
import { Unauthorized } from './errors.ts';
import type { LinkClaims } from '#domain/outbox.ts';

export const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * The signing link token for `claims`. HS256 is deterministic, so minting the same claims again
 * (when the invitation email goes out) gives the same token: the token itself is never stored.
 */
export async function mintSigningToken(secret: string, claims: LinkClaims): Promise<string> {
  return new SignJWT({ env: claims.envelopeId, ver: claims.version, typ: 'signing' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.signerId)
    .setJti(claims.jti)
    .setIssuedAt(claims.issuedAt)
    .setExpirationTime(claims.expiresAt)
    .sign(new TextEncoder().encode(secret));
}

export const signingUrl = (signingBase: string, token: string) => `${signingBase}/sign/${token}`;

export interface VerifiedLink {
  envelopeId: string;
  signerId: string;
  version: number;
}

/** Checks a link token's signature (HS256 only), type and expiry; any failure is a 401 that says which. */
export async function verifySigningToken(secret: string, token: string, now: Date): Promise<VerifiedLink> {
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), {
      algorithms: ['HS256'], currentDate: now, requiredClaims: ['exp', 'sub', 'jti'],
    });
    if (payload.typ !== 'signing' || typeof payload.env !== 'string' || typeof payload.ver !== 'number' || !payload.sub) {
      throw new Unauthorized('This signing link is not valid', {}, 'link_invalid');
    }
    return { envelopeId: payload.env, signerId: payload.sub, version: payload.ver };
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) throw new Unauthorized('This signing link has expired', {}, 'link_expired');
    if (error instanceof Unauthorized) throw error;
    throw new Unauthorized('This signing link is not valid', {}, 'link_invalid');
  }
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

/** Download links are minted like signing links (deterministic HS256), with their own type. */
export async function mintDownloadToken(secret: string, claims: DownloadClaims): Promise<string> {
  return new SignJWT({ env: claims.envelopeId, typ: 'download' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.linkId)
    .setJti(claims.linkId)
    .setIssuedAt(claims.issuedAt)
    .setExpirationTime(claims.expiresAt)
    .sign(new TextEncoder().encode(secret));
}

export async function verifyDownloadToken(secret: string, token: string, now: Date): Promise<{ envelopeId: string; linkId: string }> {
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), { algorithms: ['HS256'], currentDate: now, requiredClaims: ['exp', 'sub'] });
    if (payload.typ !== 'download' || typeof payload.env !== 'string' || !payload.sub) throw new Unauthorized('This download link is not valid', {}, 'link_invalid');
    return { envelopeId: payload.env, linkId: payload.sub };
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) throw new Unauthorized('This download link has expired', {}, 'link_expired');
    if (error instanceof Unauthorized) throw error;
    throw new Unauthorized('This download link is not valid', {}, 'link_invalid');
  }
}

export const downloadUrl = (signingBase: string, token: string) => `${signingBase}/download/${token}`;
