import { listContacts } from '#shared/console/console-actions.ts';
import { bearerAccess, json, respond, route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { ContactsQuery } from '#shared/console/console-schemas.ts';
import { ContactListResponse } from '#shared/console/console-response-schemas.ts';

export const definition = route({
  method: 'GET', path: '/v1/console/contacts', auth: 'bearer', tag: 'Console',
  operationId: 'listContacts', summary: "The application's saved contacts, optionally searched",
  description: 'The saved contacts of the calling application, sorted by name; `search` matches name and email case-insensitively.',
  query: ContactsQuery,
  success: { status: 200, description: 'The contacts, ordered by email', content: json(ContactListResponse) },
  errors: { 400: 'Invalid query parameter' },
  access: { ...bearerAccess },
}, (deps) => async ({ query, principal }) =>
  respond(ContactListResponse, await listContacts(deps, principal.appId, query.search ?? null)));

export const handler = lambda(definition);
