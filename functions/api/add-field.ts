import * as v from 'valibot';
import { addEnvelopeFields } from '#shared/envelopes/placement-actions.ts';
import { envelopeWrite, json, jsonBody, respond, route } from '#shared/http/endpoint.ts';
import { CONCURRENT, NO_ENVELOPE } from '#shared/http/error-docs.ts';
import { lambda } from '#shared/http/lambda.ts';
import { fieldView } from '#shared/envelopes/envelope-views.ts';
import { IdParams } from '#shared/http/common-schemas.ts';
import { AddFieldRequest } from '#shared/envelopes/envelope-schemas.ts';
import { AnchoredFieldsResponse, FieldResponse } from '#shared/envelopes/envelope-response-schemas.ts';

/** A field by coordinates answers the Field; one by anchor answers `{ data: [Field, ...] }`, one per occurrence (decision 17). */
const AddFieldResponse = v.union([FieldResponse, AnchoredFieldsResponse]);

export const definition = route({
  method: 'POST', path: '/v1/envelopes/{id}/fields', auth: 'bearer', tag: 'Envelopes',
  operationId: 'addField', summary: 'Place a field on a draft envelope',
  description:
    'By coordinates (`page`, `x`, `y`): answers the Field. By `anchor` (a text in the document, e.g. `/sig1/`): one field per occurrence, ' +
    'or the first, answered as `{ data: [Field, ...] }` (empty when `ignoreIfMissing` and not found).',
  params: IdParams,
  body: jsonBody(AddFieldRequest),
  success: { status: 201, description: 'The new field, or `{ data }` for an anchor', content: json(AddFieldResponse) },
  errors: {
    400: 'Validation error, a placement outside the page, an anchor not in the document, or the envelope is not in draft',
    404: NO_ENVELOPE,
    409: CONCURRENT,
  },
  authoring: { kind: 'envelope', mode: 'fields' },
  // An anchor is found in the document's stored text index (original/<envelope>/<document>.text.json).
  access: { ...envelopeWrite, documents: { read: ['original/'] } },
}, (deps) => async ({ params, body, principal, meta }) => {
  const fields = (await addEnvelopeFields(deps, principal.appId, params.id, body, meta)).map(fieldView);
  if (body.anchor) return respond(AddFieldResponse, { data: fields }, 201);
  const [field] = fields;
  if (!field) throw new Error('A field placed by coordinates is added as one field');
  return respond(AddFieldResponse, field, 201);
});

export const handler = lambda(definition);
