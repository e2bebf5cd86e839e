import { saveContact } from '#shared/console/console-actions.ts';
import { bearerAccess, json, jsonBody, respond, route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { ContactRequest } from '#shared/console/console-schemas.ts';
import { ContactResponse } from '#shared/console/console-response-schemas.ts';

/** 200 whether created or updated (decision 40): the contact is keyed by (application, email). */
export const definition = route({
  method: 'POST', path: '/v1/console/contacts', auth: 'bearer', tag: 'Console',
  operationId: 'saveContact', summary: 'Create a contact, or update the one with the same email',
  description:
    'Contacts are unique per application and email, compared case-insensitively: saving an existing email updates that contact ' +
    '(name, phone, the email\'s spelling) and keeps its id.',
  body: jsonBody(ContactRequest),
  success: { status: 200, description: 'The contact, created or updated', content: json(ContactResponse) },
  errors: { 400: 'Validation error' },
  access: { ...bearerAccess, table: 'write' },
}, (deps) => async ({ body, principal }) => respond(ContactResponse, await saveContact(deps, principal.appId, body)));

export const handler = lambda(definition);
