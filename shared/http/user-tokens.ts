/**
 * Access tokens of the console's OpenID provider (the Cognito user pool on AWS, the local provider locally): RS256 or
 * ES256 JWTs verified against the provider's published keys (fetched once and cached by `jose`, fetched again for a
 * key id it has not seen, so a key rotation needs no deploy). A token is accepted when its signature, issuer, expiry
 * (on the service clock), client (`client_id`) and, where the provider sets one, audience hold, and it is an access
 * token: Cognito says so in `token_use`, RFC 9068 providers in the `at+jwt` header type. An ID token says neither.
 */
import { createRemoteJWKSet, decodeProtectedHeader, errors as joseErrors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import type { SignInConfig } from '#shared/config.ts';
import { Unauthorized } from '#shared/kernel/errors.ts';

/** Who a user token names: their `sub` at the provider, and their email when the token carries it. */
export interface UserClaims {
  subject: string;
  email: string | null;
}

const keySets = new Map<string, JWTVerifyGetKey>();

/** The provider's key set, one per JWKS URL in a container, so its cache outlives a request. */
export function providerKeys(jwksUrl: string): JWTVerifyGetKey {
  let keys = keySets.get(jwksUrl);
  if (!keys) keySets.set(jwksUrl, keys = createRemoteJWKSet(new URL(jwksUrl), { timeoutDuration: 5000, cooldownDuration: 30_000 }));
  return keys;
}

/** Whether a bearer token is one of the service's own (HS256, client credentials) rather than a provider's. */
export function isServiceToken(token: string): boolean {
  try {
    return decodeProtectedHeader(token).alg === 'HS256';
  } catch {
    return true;
  }
}

const invalid = () => new Unauthorized('The access token is not valid', {}, 'token_invalid');

export async function verifyUserToken(signIn: SignInConfig, token: string, now: Date, keys: JWTVerifyGetKey = providerKeys(signIn.jwksUrl)): Promise<UserClaims> {
  try {
    const { payload, protectedHeader } = await jwtVerify(token, keys, {
      algorithms: ['RS256', 'ES256'], issuer: signIn.issuer, currentDate: now, requiredClaims: ['exp', 'sub', 'client_id'],
      ...(signIn.audience ? { audience: signIn.audience } : {}),
    });
    const accessToken = payload.token_use === undefined ? protectedHeader.typ?.toLowerCase() === 'at+jwt' : payload.token_use === 'access';
    if (!accessToken || payload.client_id !== signIn.clientId || !payload.sub) throw invalid();
    return { subject: payload.sub, email: typeof payload.email === 'string' ? payload.email : null };
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) {
      throw new Unauthorized(`The access token has expired (the service time is ${now.toISOString()}): sign in again`, {}, 'token_expired');
    }
    if (error instanceof Unauthorized) throw error;
    throw invalid();
  }
}
