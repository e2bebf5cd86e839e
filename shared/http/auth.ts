import { verifyAccessToken, type BearerPrincipal } from '#domain/access-tokens.ts';
import { Forbidden, Unauthorized } from '#domain/errors.ts';
import type { Deps } from '../deps.ts';

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export const bearerTokenOf = (authorization: string | undefined) => /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];

/** Bearer authentication for `/v1` endpoints: a valid token of an existing, active application. */
export function bearerAuth(deps: Pick<Deps, 'config' | 'clock' | 'applications'>) {
  return async (headers: Record<string, string | undefined>): Promise<BearerPrincipal> => {
    const token = bearerTokenOf(headers.authorization);
    if (!token) throw new Unauthorized('Missing bearer token: send Authorization: Bearer <access_token>');
    const principal = await verifyAccessToken(deps.config.jwtSecret, token, deps.clock.now());
    const app = await deps.applications.get(principal.appId);
    if (app?.clientId !== principal.clientId) throw new Unauthorized('The access token is not valid');
    if (app.suspended) throw new Forbidden('This application is suspended');
    return principal;
  };
}
