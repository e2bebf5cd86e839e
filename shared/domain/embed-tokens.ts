import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';
import type { EmbedClaims } from './embedding.ts';
import { Unauthorized } from './errors.ts';

/** The ticket in an embedded signing URL (decision 36): HS256 under the link secret, its own type, 5 minutes. */
export async function mintEmbedToken(secret: string, claims: EmbedClaims): Promise<string> {
  return new SignJWT({ env: claims.envelopeId, typ: 'embed' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.signerId)
    .setJti(claims.jti)
    .setIssuedAt(claims.issuedAt)
    .setExpirationTime(claims.expiresAt)
    .sign(new TextEncoder().encode(secret));
}

export const embedUrl = (signingBase: string, token: string) => `${signingBase}/embed/${token}`;

/**
 * Checks a ticket's signature and type; its expiry too unless `expired` allows it (the page itself, whose frame
 * policy depends only on whose envelope it is). Any failure is a 401 that says which.
 */
export async function verifyEmbedToken(secret: string, token: string, now: Date, expired: 'refuse' | 'allow' = 'refuse'): Promise<{ envelopeId: string; signerId: string; jti: string }> {
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), {
      algorithms: ['HS256'], currentDate: expired === 'allow' ? new Date(0) : now, requiredClaims: ['exp', 'sub', 'jti'],
    });
    if (payload.typ !== 'embed' || typeof payload.env !== 'string' || !payload.sub || !payload.jti) throw new Unauthorized('This signing link is not valid', {}, 'link_invalid');
    return { envelopeId: payload.env, signerId: payload.sub, jti: payload.jti };
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) throw new Unauthorized('This embedded signing link has expired; ask for a new one', {}, 'link_expired');
    if (error instanceof Unauthorized) throw error;
    throw new Unauthorized('This signing link is not valid', {}, 'link_invalid');
  }
}
