import { createHash } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { SignInConfig } from '#shared/config.ts';
import { verifyAccessToken, type BearerPrincipal } from '#shared/kernel/tokens.ts';
import { Forbidden, Unauthorized } from '#shared/kernel/errors.ts';
import { isServiceToken, verifyUserToken, type UserClaims } from './user-tokens.ts';

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export const bearerTokenOf = (authorization: string | undefined) => /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];

/**
 * Who a request counts against, told before the route runs: an application (a bearer token whose signature and
 * lifetime verify: the service's own, or the OpenID provider's for a console user, whose application the team
 * records tell), a link token (signer and download-portal routes carry it in the path), or, for anything else,
 * the client address.
 */
export type Caller =
  | { kind: 'app'; appId: string; principal: BearerPrincipal }
  | { kind: 'link'; tokenHash: string; ip: string }
  | { kind: 'anonymous'; ip: string; bearer: 'missing' }
  | { kind: 'anonymous'; ip: string; bearer: 'invalid'; refusal: Unauthorized | Forbidden };

/** How a console user's `sub` is found in the team records. */
export interface UserLookup {
  userBySubject(userId: string): Promise<{ appId: string; userId: string; email: string; role: 'admin' | 'sender' } | undefined>;
}

export interface CallerKeys {
  jwtSecret: string;
  signIn: SignInConfig | null;
  users: UserLookup;
}

async function principalOf(keys: CallerKeys, bearer: string, now: Date): Promise<BearerPrincipal> {
  if (isServiceToken(bearer) || !keys.signIn) return verifyAccessToken(keys.jwtSecret, bearer, now);
  const claims: UserClaims = await verifyUserToken(keys.signIn, bearer, now);
  const user = await keys.users.userBySubject(claims.subject);
  if (!user) throw new Forbidden('You are signed in, but no application of this service has invited you: ask its administrator for an invitation', {}, 'user_unknown');
  return { appId: user.appId, clientId: keys.signIn.clientId, user: { userId: user.userId, email: user.email, role: user.role } };
}

/** The one place a bearer token is verified (once per request); whether its application may call is authorize's check. */
export async function callerOf(keys: CallerKeys, now: Date, event: APIGatewayProxyEventV2): Promise<Caller> {
  const ip = event.requestContext.http.sourceIp || 'unknown';
  const token = event.pathParameters?.token;
  if (token) return { kind: 'link', tokenHash: createHash('sha256').update(token).digest('hex'), ip };
  const bearer = bearerTokenOf(event.headers.authorization);
  if (!bearer) return { kind: 'anonymous', ip, bearer: 'missing' };
  try {
    const principal = await principalOf(keys, bearer, now);
    return { kind: 'app', appId: principal.appId, principal };
  } catch (error) {
    // answered 401 (403 for a user no application knows) on bearer routes, counted against the address; a failed
    // read of the team records is no verdict on the token
    if (!(error instanceof Unauthorized || error instanceof Forbidden)) throw error;
    return { kind: 'anonymous', ip, bearer: 'invalid', refusal: error };
  }
}
