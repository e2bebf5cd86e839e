import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { Unauthorized } from './errors.ts';

export const ACCESS_TOKEN_SECONDS = 3600;
const ISSUER = 'esign-service';
const AUDIENCE = 'esign-api';

export interface BearerPrincipal {
  appId: string;
  clientId: string;
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
