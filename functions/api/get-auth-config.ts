import { json, respond, route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { NotFound } from '#shared/kernel/errors.ts';
import { AuthConfigResponse } from '#shared/console/team-schemas.ts';

/** What the console needs to sign in: the OpenID provider and its public client (no secret in it). */
export const definition = route({
  method: 'GET', path: '/v1/console/auth-config', auth: 'none', tag: 'Console',
  operationId: 'getAuthConfig', summary: "How the console signs in (the OpenID provider and the console's client)",
  description:
    'The console signs in with authorization code and PKCE (S256) at `issuer` (its discovery document), with `redirect_uri` the signing host ' +
    'origin followed by `redirectPath`, and calls the API with `Authorization: Bearer <access token>`. No authentication.',
  success: { status: 200, description: 'The sign-in settings', content: json(AuthConfigResponse) },
  errors: { 404: 'No OpenID provider is configured for this deployment' },
  access: {},
}, (deps) => () => {
  const signIn = deps.config.signIn;
  if (!signIn) throw new NotFound('Sign-in is not configured for this deployment');
  return Promise.resolve(respond(AuthConfigResponse, {
    issuer: signIn.issuer, clientId: signIn.clientId, scopes: ['openid', 'email', 'profile'], redirectPath: '/app/callback', logoutUrl: signIn.logoutUrl,
  }));
});

export const handler = lambda(definition);
