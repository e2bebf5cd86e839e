import { createHash } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { claimsAuthoring, verifyAccessToken, verifyAuthoringSession, type BearerPrincipal } from '#shared/kernel/tokens.ts';
import { Unauthorized } from '#shared/kernel/errors.ts';

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export const bearerTokenOf = (authorization: string | undefined) => /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];

/**
 * Who a request counts against, told before the route runs: an application (a bearer token whose signature and
 * lifetime verify), a link token (signer and download-portal routes carry it in the path), or, for anything else,
 * the client address.
 */
export type Caller =
  | { kind: 'app'; appId: string; principal: BearerPrincipal }
  | { kind: 'link'; tokenHash: string; ip: string }
  | { kind: 'anonymous'; ip: string; bearer: 'missing' }
  | { kind: 'anonymous'; ip: string; bearer: 'invalid'; refusal: Unauthorized };

/** The one place a bearer token is verified (once per request); whether its application may call is authorize's check. */
export async function callerOf(jwtSecret: string, now: Date, event: APIGatewayProxyEventV2): Promise<Caller> {
  const ip = event.requestContext.http.sourceIp || 'unknown';
  const token = event.pathParameters?.token;
  if (token) return { kind: 'link', tokenHash: createHash('sha256').update(token).digest('hex'), ip };
  const bearer = bearerTokenOf(event.headers.authorization);
  if (!bearer) return { kind: 'anonymous', ip, bearer: 'missing' };
  try {
    // An authoring session is a bearer token of its own kind: it acts for its application, within its scope.
    const principal = claimsAuthoring(bearer) ? await verifyAuthoringSession(jwtSecret, bearer, now) : await verifyAccessToken(jwtSecret, bearer, now);
    return { kind: 'app', appId: principal.appId, principal };
  } catch (error) {
    // answered 401 on bearer routes (expired, not valid: the reason verification gave), counted against the address
    const refusal = error instanceof Unauthorized ? error : new Unauthorized('The access token is not valid', {}, 'token_invalid');
    return { kind: 'anonymous', ip, bearer: 'invalid', refusal };
  }
}
