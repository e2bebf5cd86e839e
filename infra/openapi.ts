/**
 * The OpenAPI 3.1 document, generated from the route manifest and the valibot schemas. Each manifest route
 * takes its documentation from OPERATIONS by operationId; a route without an entry makes the build throw.
 */
import { toJsonSchemaDefs, type ConversionConfig, type JsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import {
  AddFieldRequest, CreateEnvelopeRequest, CreateFieldRequest, CreateSignerRequest, DocumentQuery, ListEnvelopesQuery, SendRequest, VoidRequest,
} from '#schemas/envelopes.ts';
import { TokenRequest } from '#schemas/auth.ts';
import * as res from '#schemas/responses.ts';
import { routes as manifest, type RouteDef } from './routes.ts';

const COMPONENT_SCHEMAS = {
  Envelope: res.EnvelopeResponse,
  Signer: res.SignerResponse,
  Field: res.FieldResponse,
  Document: res.DocumentResponse,
  AuditEvent: res.AuditEventResponse,
  EnvelopeList: res.EnvelopeListResponse,
  DocumentUpload: res.DocumentUploadResponse,
  AuditVerification: res.AuditVerificationResponse,
  TokenResponse: res.TokenResponse,
  Error: res.ErrorResponse,
  OpenApiDocument: res.OpenApiDocumentResponse,
  TokenRequest,
  CreateEnvelopeRequest,
  CreateSignerRequest,
  CreateFieldRequest,
  AddFieldRequest,
  SendRequest,
  VoidRequest,
};
type ComponentName = keyof typeof COMPONENT_SCHEMAS;

/** Rules the request schemas check in code (`v.check`) and JSON Schema cannot say. */
const COMPONENT_NOTES: Partial<Record<ComponentName, string>> = {
  CreateSignerRequest: '`phone` is required when `authMethod` is `sms_otp`.',
  CreateFieldRequest: 'Name the signer with `signerIndex` (0-based position in `signers`) or `signerEmail`: signers have no ids yet (DECISIONS 4).',
  AddFieldRequest: '`signerId` and `documentId` take a UUID or the prefixed form (`sgn_<uuid>`, `doc_<uuid>`); the field must lie inside the page (DECISIONS 25).',
  Error: 'One body that is both published error shapes (DECISIONS 7).',
};

const CONVERSION: ConversionConfig = {
  target: 'draft-2020-12',
  typeMode: 'input', // what the client sends, before trim/transform
  ignoreActions: ['trim', 'check', 'finite'], // no JSON Schema equivalent; listed so any other unsupported action still throws
  overrideRef: ({ referenceId }) => `#/components/schemas/${referenceId}`,
};

/** A schema object: JSON Schema 2020-12 plus the content keywords the converter's type leaves out. */
interface SchemaObject extends JsonSchema {
  contentSchema?: SchemaObject;
}

interface Media { schema: SchemaObject; encoding?: Record<string, { contentType: string }> }
type Content = Record<string, Media>;
interface HeaderDoc { description: string; schema: SchemaObject }

const ERROR_STATUSES = [400, 401, 403, 404, 409, 410, 413, 415, 500] as const;
type ErrorStatus = (typeof ERROR_STATUSES)[number];

interface OperationDoc {
  description?: string;
  query?: v.ObjectSchema<v.ObjectEntries, undefined>;
  body?: { required: boolean; description?: string; content: Content };
  success: { status: 200 | 201; description: string; content: Content; headers?: Record<string, HeaderDoc> };
  /** Endpoint-specific meaning of each error status; 401/403 (bearer), 415 (body) and 500 are implied. */
  errors: Partial<Record<ErrorStatus, string>>;
}

const ref = (name: ComponentName): SchemaObject => ({ $ref: `#/components/schemas/${name}` });
const json = (name: ComponentName): Content => ({ 'application/json': { schema: ref(name) } });
const pdf: SchemaObject = { type: 'string', contentMediaType: 'application/pdf' };
const jsonText = (schema: SchemaObject): SchemaObject => ({ type: 'string', contentMediaType: 'application/json', contentSchema: schema });
const createProperty = (name: keyof typeof CreateEnvelopeRequest.entries): SchemaObject => ({ $ref: `#/components/schemas/CreateEnvelopeRequest/properties/${name}` });

/** Variant A (DECISIONS 4): the PDF plus either a `data` part with the JSON request or flat form fields. */
const multipartCreate: Media = {
  schema: {
    anyOf: [
      { title: 'PDF and data part', type: 'object', required: ['file', 'data'], properties: { file: pdf, data: jsonText(ref('CreateEnvelopeRequest')) } },
      {
        title: 'PDF and flat fields',
        type: 'object',
        required: ['file', 'tenantId', 'signers'],
        properties: {
          file: pdf,
          ...Object.fromEntries((['tenantId', 'subject', 'createdBy', 'expiresInDays', 'fieldOrigin'] as const).map((name) => [name, createProperty(name)])),
          signers: jsonText({ type: 'array', minItems: 1, items: ref('CreateSignerRequest') }),
          fields: jsonText({ type: 'array', items: ref('CreateFieldRequest') }),
        },
      },
    ],
  },
  encoding: { file: { contentType: 'application/pdf' }, data: { contentType: 'application/json' }, signers: { contentType: 'application/json' }, fields: { contentType: 'application/json' } },
};

const concurrent = 'Another request changed the envelope at the same time; retry';

const OPERATIONS: Record<string, OperationDoc> = {
  issueToken: {
    description: 'OAuth 2.0 client credentials; the client id and secret may also be sent as HTTP Basic credentials.',
    body: { required: true, content: { 'application/x-www-form-urlencoded': { schema: ref('TokenRequest') } } },
    success: { status: 200, description: 'A bearer token valid for 3600 seconds', content: json('TokenResponse') },
    errors: { 400: 'Missing field or unsupported grant_type', 401: 'Invalid client credentials', 403: 'The application is suspended' },
  },
  createEnvelope: {
    description: 'Multipart carries the PDF; a JSON create is followed by `POST /v1/envelopes/{id}/document` (DECISIONS 4).',
    body: { required: true, content: { 'multipart/form-data': multipartCreate, ...json('CreateEnvelopeRequest') } },
    success: { status: 201, description: 'The envelope, in draft', content: json('Envelope') },
    errors: { 400: 'Validation error, or the file is not a usable PDF', 413: 'The file is larger than 25 MB' },
  },
  listEnvelopes: {
    query: ListEnvelopesQuery,
    success: { status: 200, description: "A page of the tenant's envelopes, newest first", content: json('EnvelopeList') },
    errors: { 400: 'Invalid query parameter' },
  },
  getEnvelope: {
    success: { status: 200, description: 'The envelope with signers, fields, documents and audit log', content: json('Envelope') },
    errors: { 404: 'No such envelope for this application' },
  },
  sendEnvelope: {
    body: { required: false, content: json('SendRequest') },
    success: { status: 200, description: 'The sent envelope; `signers[].signingUrl` carries the first routing group\'s links', content: json('Envelope') },
    errors: { 400: 'Not in draft, or a signer without fields, or no signers or fields', 403: 'Suspended application or envelope quota reached', 404: 'No such envelope for this application', 409: concurrent },
  },
  voidEnvelope: {
    body: { required: false, content: json('VoidRequest') },
    success: { status: 200, description: 'The voided envelope', content: json('Envelope') },
    errors: { 400: 'The envelope is already terminal (DECISIONS 6)', 404: 'No such envelope for this application', 409: concurrent },
  },
  getDocument: {
    query: DocumentQuery,
    success: {
      status: 200,
      description: 'The PDF',
      content: { 'application/pdf': { schema: pdf } },
      headers: {
        'Content-Disposition': { description: 'attachment, named after the subject', schema: { type: 'string' } },
        'X-Document-Sha256': { description: 'SHA-256 of the PDF, lowercase hex', schema: { type: 'string', pattern: '^[0-9a-f]{64}$' } },
      },
    },
    errors: { 400: 'Invalid kind', 404: 'No such envelope, or no document uploaded yet', 409: 'The sealed document is requested before completion', 410: 'The document was purged' },
  },
  uploadDocument: {
    body: { required: true, description: 'The PDF bytes', content: { 'application/octet-stream': { schema: pdf }, 'application/pdf': { schema: pdf } } },
    success: { status: 201, description: 'The stored original document', content: json('DocumentUpload') },
    errors: { 400: 'Empty body, not a usable PDF, or the envelope is not in draft', 404: 'No such envelope for this application', 409: concurrent, 413: 'The PDF is larger than 25 MB' },
  },
  addSigner: {
    body: { required: true, content: json('CreateSignerRequest') },
    success: { status: 201, description: 'The new signer', content: json('Signer') },
    errors: { 400: 'Validation error, or the envelope is not in draft', 404: 'No such envelope for this application', 409: concurrent },
  },
  addField: {
    body: { required: true, content: json('AddFieldRequest') },
    success: { status: 201, description: 'The new field', content: json('Field') },
    errors: { 400: 'Validation error, a placement outside the page, or the envelope is not in draft', 404: 'No such envelope for this application', 409: concurrent },
  },
  verifyAudit: {
    success: { status: 200, description: 'Whether the audit hash chain recomputes to the recorded head', content: json('AuditVerification') },
    errors: { 404: 'No such envelope for this application' },
  },
  getOpenApi: {
    success: { status: 200, description: 'This document', content: json('OpenApiDocument') },
    errors: {},
  },
};

const ERROR_RESPONSES: Record<ErrorStatus, { name: string; description: string }> = {
  400: { name: 'BadRequest', description: 'Validation error (`validation_error`) or a state that does not allow the request (`invalid_state`)' },
  401: { name: 'Unauthorized', description: 'Missing, expired or invalid credentials' },
  403: { name: 'Forbidden', description: 'The credentials are valid but not permitted here' },
  404: { name: 'NotFound', description: 'Not found, or not owned by the caller' },
  409: { name: 'Conflict', description: 'Conflict with the current state' },
  410: { name: 'Gone', description: 'No longer available' },
  413: { name: 'PayloadTooLarge', description: 'The body or file is larger than 25 MB' },
  415: { name: 'UnsupportedMediaType', description: 'This endpoint does not accept the request\'s Content-Type' },
  500: { name: 'InternalError', description: 'Internal error; the body carries the request id to quote' },
};

const PATH_PARAMETERS: Record<string, string> = {
  id: 'Envelope id: a UUID, or the prefixed form `env_<uuid>` (DECISIONS 1)',
  token: 'The opaque link token from a signing or download link',
};

const TAGS: Record<RouteDef['tag'], string> = {
  Auth: 'OAuth 2.0 client credentials',
  Envelopes: 'Envelopes, their signers, fields, documents and audit trail',
  Meta: 'About the API itself',
};

const requestIdHeader = { 'X-Request-Id': { $ref: '#/components/headers/RequestId' } };

export interface OpenApiParameter { name: string; in: 'path' | 'query'; required: boolean; description?: string; schema: SchemaObject }
export interface OpenApiOperation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  security: Record<string, string[]>[];
  parameters?: OpenApiParameter[];
  requestBody?: OperationDoc['body'];
  responses: Record<string, object>;
}
export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string; license: { name: string; identifier: string } };
  servers: { url: string }[];
  tags: { name: string; description: string }[];
  security: Record<string, string[]>[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, SchemaObject>; responses: Record<string, object>; headers: Record<string, object>; securitySchemes: Record<string, object> };
}

/** `queryInt` values arrive as digit strings and are integers once parsed: document the integer. */
function queryInteger(entry: object): SchemaObject | undefined {
  const inner: object = 'wrapped' in entry && typeof entry.wrapped === 'object' && entry.wrapped !== null ? entry.wrapped : entry;
  const pipe = 'pipe' in inner && Array.isArray(inner.pipe) ? (inner.pipe as readonly { type: string; operation?: unknown; requirement?: unknown }[]) : [];
  const at = pipe.findIndex((step) => step.type === 'transform' && step.operation === Number);
  if (at < 0) return undefined;
  const schema: SchemaObject = { type: 'integer' };
  for (const step of pipe.slice(at + 1)) {
    if (step.type === 'min_value' && typeof step.requirement === 'number') schema.minimum = step.requirement;
    if (step.type === 'max_value' && typeof step.requirement === 'number') schema.maximum = step.requirement;
  }
  const fallback = 'default' in entry ? Number(entry.default) : Number.NaN;
  if (Number.isFinite(fallback)) schema.default = fallback;
  return schema;
}

function queryParameters(query: NonNullable<OperationDoc['query']>): OpenApiParameter[] {
  const converted = toJsonSchemaDefs({ query }, CONVERSION).query;
  return Object.entries(query.entries).map(([name, entry]) => {
    const property = converted.properties?.[name];
    const schema = queryInteger(entry) ?? (typeof property === 'object' ? property : {});
    return { name, in: 'query', required: converted.required?.includes(name) ?? false, schema };
  });
}

function pathParameters(route: RouteDef): OpenApiParameter[] {
  return [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => {
    const name = match[1] ?? '';
    const description = PATH_PARAMETERS[name];
    if (!description) throw new Error(`OpenAPI: path parameter {${name}} of ${route.operationId} has no description in PATH_PARAMETERS (infra/openapi.ts)`);
    return { name, in: 'path', required: true, description, schema: { type: 'string' } };
  });
}

function responses(route: RouteDef, doc: OperationDoc): Record<string, object> {
  const { status, description, content, headers } = doc.success;
  const result: Record<string, object> = { [String(status)]: { description, headers: { ...requestIdHeader, ...headers }, content } };
  const implied = (code: ErrorStatus) => code === 500 || (code === 415 && doc.body !== undefined) || ((code === 401 || code === 403) && route.auth === 'bearer') || (code === 401 && route.auth === 'link');
  for (const code of ERROR_STATUSES) {
    const meaning = doc.errors[code];
    if (meaning === undefined && !implied(code)) continue;
    result[String(code)] = { $ref: `#/components/responses/${ERROR_RESPONSES[code].name}`, ...(meaning === undefined ? {} : { description: meaning }) };
  }
  return result;
}

function operation(route: RouteDef, doc: OperationDoc): OpenApiOperation {
  const parameters = [...pathParameters(route), ...(doc.query ? queryParameters(doc.query) : [])];
  return {
    operationId: route.operationId,
    summary: route.summary,
    ...(doc.description === undefined ? {} : { description: doc.description }),
    tags: [route.tag],
    security: route.auth === 'bearer' ? [{ bearerAuth: [] }] : [],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(doc.body === undefined ? {} : { requestBody: doc.body }),
    responses: responses(route, doc),
  };
}

function paths(routes: readonly RouteDef[]): OpenApiDocument['paths'] {
  const result: OpenApiDocument['paths'] = {};
  const seen = new Set<string>();
  for (const route of routes) {
    const doc = OPERATIONS[route.operationId];
    if (!doc) throw new Error(`OpenAPI: route ${route.method} ${route.path} (operationId "${route.operationId}") has no documentation: add it to OPERATIONS in infra/openapi.ts`);
    if (seen.has(route.operationId)) throw new Error(`OpenAPI: operationId "${route.operationId}" appears twice in the route manifest`);
    seen.add(route.operationId);
    const item = (result[route.path] ??= {});
    const method = route.method.toLowerCase();
    if (item[method]) throw new Error(`OpenAPI: ${route.method} ${route.path} appears twice in the route manifest`);
    item[method] = operation(route, doc);
  }
  return result;
}

function componentSchemas(): Record<string, SchemaObject> {
  const schemas: Record<string, SchemaObject> = toJsonSchemaDefs(COMPONENT_SCHEMAS, CONVERSION);
  for (const [name, note] of Object.entries(COMPONENT_NOTES)) {
    const schema = schemas[name];
    if (schema) schema.description = schema.description ? `${schema.description} ${note}` : note;
  }
  return schemas;
}

function errorResponses(): Record<string, object> {
  return Object.fromEntries(Object.entries(ERROR_RESPONSES).map(([code, { name, description }]) => {
    const headers = code === '401' ? { ...requestIdHeader, 'WWW-Authenticate': { description: '`Bearer`', schema: { type: 'string' } } } : requestIdHeader;
    return [name, { description, headers, content: json('Error') }];
  }));
}

const securitySchemes = {
  bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'An access token from `POST /oauth/token`' },
  oauth2: { type: 'oauth2', description: 'Client credentials; the token is then sent as a bearer token', flows: { clientCredentials: { tokenUrl: '/oauth/token', scopes: {} } } },
};

/** Operation ids that have documentation, for the test that every entry still has a route. */
export const documentedOperationIds = (): string[] => Object.keys(OPERATIONS);

export function buildOpenApi(options: { serverUrl: string }, routes: readonly RouteDef[] = manifest): OpenApiDocument {
  const tags = [...new Set(routes.map((route) => route.tag))];
  return {
    openapi: '3.1.0',
    info: {
      title: 'E-signature service API',
      version: '1.0.0',
      description: 'Envelopes, signers, sealed PDFs and a hash-chained audit trail.',
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    servers: [{ url: options.serverUrl }],
    tags: tags.map((name) => ({ name, description: TAGS[name] })),
    security: [{ bearerAuth: [] }],
    paths: paths(routes),
    components: {
      schemas: componentSchemas(),
      responses: errorResponses(),
      headers: { RequestId: { description: 'Identifies the request in logs and error bodies', schema: { type: 'string' } } },
      securitySchemes,
    },
  };
}
