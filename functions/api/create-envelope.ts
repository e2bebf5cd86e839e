import { ValidationError } from '#shared/kernel/errors.ts';
import type { UploadInput } from '#shared/envelopes/envelope-inputs.ts';
import { createEnvelope } from '#shared/envelopes/upload-actions.ts';
import type { BodyRule } from '#shared/http/body-rules.ts';
import type { ParsedBody } from '#shared/http/body.ts';
import { envelopeWrite, invites, json, PDF_SCHEMA, pdfHandling, respond, route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { withCheckedApplication } from '#shared/http/app-cache.ts';
import { parseWith } from '#shared/http/validation.ts';
import { envelopeView } from '#shared/envelopes/envelope-views.ts';
import { CreateEnvelopeRequest } from '#shared/envelopes/envelope-schemas.ts';
import { CreateFromTemplateRequest } from '#shared/templates/template-schemas.ts';
import { createFromTemplate } from '#shared/templates/from-template-actions.ts';
import * as v from 'valibot';
import { EnvelopeResponse } from '#shared/envelopes/envelope-response-schemas.ts';
import { PDF_REFUSED } from '#shared/http/error-docs.ts';
import { callerAsSender } from '#shared/console/envelope-sender.ts';
import type { EnvelopeSender } from '#shared/console/branding.ts';

type CreateInput =
  | { request: ReturnType<typeof parseRequest>; files: UploadInput[]; fromTemplate?: undefined }
  | { fromTemplate: v.InferOutput<typeof CreateFromTemplateRequest> };

const parseRequest = (value: unknown) => parseWith(CreateEnvelopeRequest, value);

function jsonPart(fields: Record<string, string>, name: string): unknown {
  const raw = fields[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    throw ValidationError.at(name, 'is not valid JSON');
  }
}

/** Multipart: a `data` part holding the JSON request, or flat form fields with `signers`/`fields` as JSON strings. */
function multipartRequest(fields: Record<string, string>): unknown {
  if (fields.data !== undefined) return jsonPart(fields, 'data');
  const flat = (name: string) => (fields[name]?.trim() ? fields[name] : undefined);
  const days = flat('expiresInDays');
  return {
    tenantId: flat('tenantId'), subject: flat('subject'), createdBy: flat('createdBy'), fieldOrigin: flat('fieldOrigin'),
    expiresInDays: days === undefined ? undefined : /^\d+$/.test(days.trim()) ? Number(days) : days,
    signers: jsonPart(fields, 'signers'), fields: jsonPart(fields, 'fields'), reminders: jsonPart(fields, 'reminders'), cc: jsonPart(fields, 'cc'),
  };
}

/** Told apart by Content-Type (decision 8): multipart carries the PDF, JSON uploads it later. */
const createBody: BodyRule<CreateInput> = {
  accepts: ['json', 'multipart'],
  read: (body: ParsedBody) => {
    if (body.kind === 'json') {
      // An envelope made from a template names it (decision 34).
      const value = body.value as Record<string, unknown> | null;
      if (typeof value === 'object' && value !== null && 'templateId' in value) return { fromTemplate: parseWith(CreateFromTemplateRequest, value) };
      return { request: parseRequest(body.value), files: [] };
    }
    if (body.kind !== 'multipart') throw ValidationError.at('body', 'must be JSON or multipart/form-data');
    // Several `file` parts are several documents, in order (decision 9); each is named by its filename.
    const files = body.files.filter((f) => f.field === 'file').map((f) => ({ bytes: f.bytes, filename: f.filename }));
    const request = parseRequest(multipartRequest(body.fields));
    if (files.length === 0) throw ValidationError.at('file', 'is required: attach the PDF as the `file` part');
    return { request, files };
  },
};

const jsonText = (schema: Record<string, unknown>) => ({ type: 'string', contentMediaType: 'application/json', contentSchema: schema });
const component = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const createProperty = (name: keyof typeof CreateEnvelopeRequest.entries) => component(`CreateEnvelopeRequest/properties/${name}`);

/** Multipart (decision 8): the PDFs plus either a `data` part with the JSON request or flat form fields. */
const multipartCreate = {
  jsonSchema: {
    anyOf: [
      { title: 'PDF and data part', type: 'object', required: ['file', 'data'], properties: { file: PDF_SCHEMA, data: jsonText(component('CreateEnvelopeRequest')) } },
      {
        title: 'PDF and flat fields',
        type: 'object',
        required: ['file', 'tenantId', 'signers'],
        properties: {
          file: PDF_SCHEMA,
          ...Object.fromEntries((['tenantId', 'subject', 'createdBy', 'expiresInDays', 'fieldOrigin'] as const).map((name) => [name, createProperty(name)])),
          signers: jsonText({ type: 'array', minItems: 1, items: component('CreateSignerRequest') }),
          fields: jsonText({ type: 'array', items: component('CreateFieldRequest') }),
        },
      },
    ],
  },
  encoding: { file: { contentType: 'application/pdf' }, data: { contentType: 'application/json' }, signers: { contentType: 'application/json' }, fields: { contentType: 'application/json' } },
};

export const definition = route({
  method: 'POST', path: '/v1/envelopes', auth: 'bearer', tag: 'Envelopes',
  operationId: 'createEnvelope', summary: 'Create an envelope (multipart with the PDF, or JSON)',
  description: 'Multipart carries the PDFs (several `file` parts are several documents, in order); a JSON create is followed by `POST /v1/envelopes/{id}/document`. The two are told apart by Content-Type.',
  body: createBody,
  requestContent: { required: true, content: { 'multipart/form-data': multipartCreate, ...json(v.union([CreateEnvelopeRequest, CreateFromTemplateRequest])) } },
  success: { status: 201, description: 'The envelope, in draft; from a template with `send: true`, sent (`signers[].signingUrl` as the send answers)', content: json(EnvelopeResponse) },
  errors: {
    400: `Validation error, or a file is not a usable PDF; from a template: a role without recipient, an unknown prefill label, another tenant; ${PDF_REFUSED}`,
    403: 'From a template with `send: true`: suspended application or envelope quota reached',
    404: 'From a template: no such template for this application',
    413: 'A file is larger than 25 MB',
  },
  // From a template: its documents are copied from templates/ into the envelope's own original/ keys.
  access: { ...envelopeWrite, ...invites, documents: { read: ['templates/'], write: ['original/'], delete: ['original/'] }, ...pdfHandling },
}, (routeDeps) => async ({ body, principal, application, meta }) => {
  // The active-content setting and the quota's plan are the application record the pipeline checked for this request.
  const deps = withCheckedApplication(routeDeps, application);
  // Without a `sender`, the signed-in user who creates it asks the signers
  const sender = async (given: EnvelopeSender | undefined) => given ?? await callerAsSender(deps, principal);
  if (body.fromTemplate) {
    const request = { ...body.fromTemplate, sender: await sender(body.fromTemplate.sender) };
    const { envelope, signingUrls } = await createFromTemplate(deps, principal.appId, request, meta);
    return respond(EnvelopeResponse, envelopeView(envelope, signingUrls ? { signingUrls } : {}), 201);
  }
  const request = { ...body.request, sender: await sender(body.request.sender) };
  return respond(EnvelopeResponse, envelopeView(await createEnvelope(deps, principal.appId, request, body.files, meta)), 201);
});

export const handler = lambda(definition);
