import { renewAuthoring } from '#shared/authoring/authoring-actions.ts';
import { AuthoringSessionResponse } from '#shared/authoring/authoring-schemas.ts';
import { json, respond, route } from '#shared/http/endpoint.ts';
import { Unauthorized } from '#shared/kernel/errors.ts';
import { lambda } from '#shared/http/lambda.ts';

export const definition = route({
  method: 'POST', path: '/v1/authoring/session', auth: 'bearer', tag: 'Envelopes',
  operationId: 'renewAuthoringSession', summary: 'Renew an authoring session while it is used',
  description: 'A fresh session token for the same draft or template: 60 minutes from now, never past 8 hours after the URL was opened. The editor calls it while someone works in it.',
  success: { status: 200, description: 'The renewed session', content: json(AuthoringSessionResponse) },
  errors: {},
  authoring: { kind: 'any', mode: 'fields' },
  access: { table: 'read', secrets: ['JWT_SECRET'] },
}, (deps) => async ({ principal }) => {
  const { authoring } = principal;
  if (!authoring) throw new Unauthorized('Only an authoring session is renewed here; an access token comes from POST /oauth/token', {}, 'session_scope');
  return respond(AuthoringSessionResponse, await renewAuthoring(deps, { ...principal, authoring }));
});

export const handler = lambda(definition);
