import { createHash } from 'node:crypto';
import { SignJWT } from 'jose';
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
