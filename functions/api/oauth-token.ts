import { issueToken } from '#shared/console/application-actions.ts';
import type { BodyRule } from '#shared/http/body-rules.ts';
import { bearerAccess, json, respond, route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { parseWith } from '#shared/http/validation.ts';
import { TokenRequest, TokenResponse } from '#shared/console/auth-schemas.ts';

/** RFC 6749 2.3.1 form-encodes the id and secret inside Basic; many clients do not, so a part that does not decode is taken as sent. */
function formDecoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** Client credentials from the form, or from HTTP Basic as RFC 6749 also allows. */
function basicCredentials(header: string | undefined): Record<string, string> {
  const match = /^Basic\s+(\S+)$/i.exec(header ?? '');
  if (!match?.[1]) return {};
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return {};
  return { client_id: formDecoded(decoded.slice(0, colon)), client_secret: formDecoded(decoded.slice(colon + 1)) };
}

const formBody: BodyRule<Record<string, string>> = {
  accepts: ['form', 'empty'],
  read: (body) => (body.kind === 'form' ? body.fields : {}),
};

export const definition = route({
  method: 'POST', path: '/oauth/token', auth: 'none', tag: 'Auth',
  operationId: 'issueToken', summary: 'Exchange client credentials for a bearer token',
  description: 'OAuth 2.0 client credentials; the client id and secret may also be sent as HTTP Basic credentials.',
  body: formBody,
  requestContent: { required: true, content: { 'application/x-www-form-urlencoded': { schema: TokenRequest } } },
  success: { status: 200, description: 'A bearer token valid for 3600 seconds', content: json(TokenResponse) },
  errors: { 400: 'Missing field or unsupported grant_type', 401: 'Invalid client credentials', 403: 'The application is suspended' },
  access: { ...bearerAccess },
}, (deps) => async ({ body, headers }) => {
  const input = parseWith(TokenRequest, { ...basicCredentials(headers.authorization), ...body });
  return respond(TokenResponse, await issueToken(deps, input.client_id, input.client_secret), 200, { pragma: 'no-cache' });
});

export const handler = lambda(definition);
