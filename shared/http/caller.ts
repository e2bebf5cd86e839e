import { createHash } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { verifyAccessToken } from '#domain/access-tokens.ts';
import { bearerTokenOf } from './auth.ts';
import type { Config } from '../config.ts';
import type { Clock } from '#ports/services.ts';

/**
 * Who a request counts against, told before the route runs: an application (a valid bearer token), a link
 * token (signer and download-portal routes carry it in the path), or, for anything else, the client address.
 */
export type Caller =
  | { kind: 'app'; appId: string }
  | { kind: 'link'; tokenHash: string; ip: string }
  | { kind: 'anonymous'; ip: string };

export async function callerOf(deps: { config: Pick<Config, 'jwtSecret'>; clock: Clock }, event: APIGatewayProxyEventV2): Promise<Caller> {
  const ip = event.requestContext.http.sourceIp || 'unknown';
  const token = event.pathParameters?.token;
  if (token) return { kind: 'link', tokenHash: createHash('sha256').update(token).digest('hex'), ip };
  const bearer = bearerTokenOf(event.headers.authorization);
  if (bearer) {
    try {
      // The signature proves the application; whether it still exists is the route's own check (401/403).
      return { kind: 'app', appId: (await verifyAccessToken(deps.config.jwtSecret, bearer, deps.clock.now())).appId };
    } catch {
      // an invalid token: the route answers 401, counted against the address
    }
  }
  return { kind: 'anonymous', ip };
}
