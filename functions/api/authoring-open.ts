import { openAuthoring } from '#shared/authoring/authoring-actions.ts';
import { AuthoringOpenResponse } from '#shared/authoring/authoring-schemas.ts';
import { json, respond, route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { TokenParams } from '#shared/signing/signing-schemas.ts';
import { PageBrandingResponse } from '#shared/console/branding-schemas.ts';
import { editorBrandingView } from '#shared/console/branding-views.ts';
import { verifyAuthoringTicket } from '#shared/kernel/tokens.ts';
import * as v from 'valibot';

const OpenResponse = v.object({
  ...AuthoringOpenResponse.entries,
  branding: v.pipe(PageBrandingResponse, v.description("The header's branding: the draft's own (what its signers see), a template's tenant's; null: none")),
});

export const definition = route({
  method: 'POST', path: '/v1/authoring/{token}/open', auth: 'link', tag: 'Envelopes',
  operationId: 'openAuthoring', summary: 'The editor opens its URL (once)',
  description:
    'Called by the editor at `/author/{token}`: spends the URL and answers the session (a bearer token for this one draft or template), ' +
    'what it may do, the origins the page may post its events to, the `returnUrl` and the branding its header shows.',
  params: TokenParams,
  success: { status: 200, description: 'The authoring session', content: json(OpenResponse) },
  errors: {
    401: 'The URL is not valid or expired unopened (`link_expired`), was already opened (`link_opened`), or its envelope is no longer a draft or its template was deleted (`link_invalid`)',
  },
  access: { table: 'read', secrets: ['JWT_SECRET', 'LINK_SECRET'] },
}, (deps) => async ({ params }) => {
  const opened = await openAuthoring(deps, params.token);
  // Verified and spent just now; its claims name the application whose branding the header shows
  const { appId } = await verifyAuthoringTicket(deps.config.linkSecret, params.token, deps.clock.now(), 'allow');
  return respond(OpenResponse, { ...opened, branding: await editorBrandingView(deps, appId, opened.kind, opened.id) });
});

export const handler = lambda(definition);
