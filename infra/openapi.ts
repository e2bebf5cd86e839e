/**
 * The OpenAPI 3.1 document, generated from the route declarations (each function module's `definition`, collected by
 * infra/routes.ts) and their valibot schemas: a schema object that is one of COMPONENT_SCHEMAS is referred to by
 * name, any other is written inline. Built at synth time into the bundles that serve it (openapi.json), and in memory
 * by the local runtime and `npm run openapi`.
 */
import { toJsonSchema, toJsonSchemaDefs, type ConversionConfig } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import { ERROR_STATUSES, type Content, type ErrorStatus, type RouteDeclaration } from '#shared/http/declaration.ts';
import type { ApiDescription } from '#shared/ports/services.ts';
import { routes as manifest, type RouteDef } from './routes.ts';
import { COMPONENT_NOTES, COMPONENT_SCHEMAS, ERROR_RESPONSES, type ComponentName, type SchemaObject } from './openapi/components.ts';
import { AUTHORING_TOKEN, CONTACT_ID, DOWNLOAD_TOKEN, PATH_PARAMETERS, TAGS, TEMPLATE_ID, WEBHOOK_ID } from './openapi/parameters.ts';
import { COMPONENT_DESCRIPTIONS, COMPONENT_EXAMPLES, REQUEST_EXAMPLE_SETS, REQUEST_EXAMPLES } from './openapi/examples.ts';
import { API_DESCRIPTION, errorDescription } from './openapi/overview.ts';
import { WEBHOOK_EVENT_SCHEMA, webhookOperations } from './openapi/webhooks.ts';

const CONVERSION: ConversionConfig = {
  target: 'draft-2020-12',
  typeMode: 'input', // what the client sends, before trim/transform
  ignoreActions: ['trim', 'check', 'finite'], // no JSON Schema equivalent; listed so any other unsupported action still throws
  overrideRef: ({ referenceId }) => `#/components/schemas/${referenceId}`,
};

/** The budget headers are on every response, errors included (decision 31). */
const commonHeaders = {
  'X-Request-Id': { $ref: '#/components/headers/RequestId' },
  'X-RateLimit-Limit': { $ref: '#/components/headers/RateLimitLimit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/RateLimitRemaining' },
  'X-RateLimit-Reset': { $ref: '#/components/headers/RateLimitReset' },
};

const HEADERS = {
  RequestId: { description: 'Identifies the request in logs and error bodies', schema: { type: 'string' } },
  RateLimitLimit: { description: 'Requests allowed per window (per application by its plan on bearer routes; per link token and per address on signer and portal routes)', schema: { type: 'integer' } },
  RateLimitRemaining: { description: 'Requests left in the current window', schema: { type: 'integer', minimum: 0 } },
  RateLimitReset: { description: 'Unix time (seconds) at which the current window ends', schema: { type: 'integer' } },
  IdempotentReplayed: { description: '`true` when this is the stored answer to an earlier request with the same Idempotency-Key', schema: { type: 'string', enum: ['true'] } },
};

/** POSTs with a credential take an Idempotency-Key (decision 32). */
const idempotent = (route: RouteDeclaration) => route.method === 'POST' && route.auth !== 'none';

const IDEMPOTENCY_KEY: OpenApiParameter = {
  name: 'Idempotency-Key', in: 'header', required: false,
  description:
    'Makes the request safe to retry: within 24 hours a request with the same key and the same method, path and body gets the stored answer ' +
    '(header `Idempotent-Replayed: true`) and creates nothing again. Keys are scoped to the application (bearer calls) or the link token ' +
    '(signer calls). 1 to 255 visible ASCII characters; a fresh UUID per logical request is a good choice.',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
};

const idempotencyConflict = (own: string | undefined) =>
  `${own === undefined ? 'The' : `${own}; or: the`} Idempotency-Key was used for a different request (\`idempotency_key_reused\`), ` +
  'or the first request with it is still running (`request_in_progress`, retry shortly)';

export interface OpenApiMedia { schema: SchemaObject; example?: unknown; examples?: Record<string, { summary: string; description?: string; value: unknown }>; encoding?: Record<string, { contentType: string }> }
export interface OpenApiParameter { name: string; in: 'path' | 'query' | 'header'; required: boolean; description?: string; schema: SchemaObject }
export interface OpenApiOperation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  security: Record<string, string[]>[];
  parameters?: OpenApiParameter[];
  requestBody?: { required: boolean; description?: string; content: Record<string, OpenApiMedia> };
  responses: Record<string, object>;
}
export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string; license: { name: string; identifier: string } };
  servers: { url: string }[];
  tags: { name: string; description: string }[];
  security: Record<string, string[]>[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  webhooks: Record<string, { post: object }>;
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

const componentNames = new Map<v.GenericSchema, string>(Object.entries(COMPONENT_SCHEMAS).map(([name, schema]) => [schema as v.GenericSchema, name]));

/** A schema as the document writes it: a $ref to its component, or inline with $refs to the components inside it. */
function schemaOf(schema: v.GenericSchema): SchemaObject {
  const name = componentNames.get(schema);
  if (name) return { $ref: `#/components/schemas/${name}` };
  const { $schema: _dialect, $defs: _definitions, ...inline } = toJsonSchema(schema, { ...CONVERSION, definitions: COMPONENT_SCHEMAS });
  return inline;
}

function contentOf(content: Content): Record<string, OpenApiMedia> {
  return Object.fromEntries(Object.entries(content).map(([type, media]) => [type, 'schema' in media
    ? { schema: schemaOf(media.schema) }
    : { schema: media.jsonSchema, ...(media.encoding ? { encoding: media.encoding } : {}) }]));
}

/** The operation's example body on its JSON (or form) media; with named examples, all of them, the plain one first. */
function withExample(operationId: string, content: Record<string, OpenApiMedia>): Record<string, OpenApiMedia> {
  const example = REQUEST_EXAMPLES[operationId];
  if (example === undefined) return content;
  const named = REQUEST_EXAMPLE_SETS[operationId];
  // A media type carries `example` or `examples`, never both.
  const examples = named && { default: { summary: 'The usual request', value: example }, ...named };
  return Object.fromEntries(Object.entries(content).map(([type, media]) =>
    [type, type === 'application/json' ? (examples ? { ...media, examples } : { ...media, example })
      : type === 'application/x-www-form-urlencoded' ? { ...media, example } : media]));
}

function requestBody(route: RouteDeclaration): OpenApiOperation['requestBody'] {
  const body = plainRequestBody(route);
  return body && { ...body, content: withExample(route.operationId, body.content) };
}

function plainRequestBody(route: RouteDeclaration): OpenApiOperation['requestBody'] {
  if (route.requestContent) return { ...route.requestContent, content: contentOf(route.requestContent.content) };
  const schema = route.body?.schema;
  if (!route.body) return undefined;
  if (!schema) throw new Error(`OpenAPI: ${route.operationId} reads a body that is not JSON: declare its requestContent`);
  return { required: !route.body.optional, content: { 'application/json': { schema: schemaOf(schema) } } };
}

function queryParameters(query: NonNullable<RouteDeclaration['query']>): OpenApiParameter[] {
  const converted = toJsonSchemaDefs({ query }, CONVERSION).query;
  return Object.entries(query.entries).map(([name, entry]) => {
    const property = converted.properties?.[name];
    const schema = queryInteger(entry) ?? (typeof property === 'object' ? property : {});
    return { name, in: 'query', required: converted.required?.includes(name) ?? false, schema };
  });
}

function pathParameters(route: RouteDeclaration): OpenApiParameter[] {
  const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] ?? '');
  if (route.auth === 'link' && !names.includes('token')) throw new Error(`OpenAPI: ${route.operationId} is a link route without a {token} path segment`);
  const converted = route.params ? toJsonSchemaDefs({ params: route.params }, CONVERSION).params.properties ?? {} : {};
  const stray = Object.keys(route.params?.entries ?? {}).filter((name) => !names.includes(name));
  if (stray.length > 0) throw new Error(`OpenAPI: the params schema of ${route.operationId} has ${stray.join(', ')}, which its path ${route.path} lacks`);
  return names.map((name) => {
    const description = name === 'token' && route.path.startsWith('/v1/download/') ? DOWNLOAD_TOKEN
      : name === 'token' && (route.path.startsWith('/v1/authoring/') || route.path.startsWith('/author/')) ? AUTHORING_TOKEN
      : name === 'id' && route.path.startsWith('/v1/templates/') ? TEMPLATE_ID
      : name === 'id' && route.path.startsWith('/v1/webhooks/') ? WEBHOOK_ID
        : name === 'id' && route.path.startsWith('/v1/console/contacts/') ? CONTACT_ID : PATH_PARAMETERS[name];
    if (!description) throw new Error(`OpenAPI: path parameter {${name}} of ${route.operationId} has no description in PATH_PARAMETERS (infra/openapi/parameters.ts)`);
    const schema = converted[name];
    return { name, in: 'path', required: true, description, schema: typeof schema === 'object' ? schema : { type: 'string' } };
  });
}

function responses(route: RouteDeclaration): Record<string, object> {
  const { status, description, content, headers } = route.success;
  const replayed = idempotent(route) ? { 'Idempotent-Replayed': { $ref: '#/components/headers/IdempotentReplayed' } } : {};
  const result: Record<string, object> = {
    [String(status)]: { description, headers: { ...commonHeaders, ...replayed, ...headers }, ...(content ? { content: contentOf(content) } : {}) },
  };
  if (route.redirect) result[String(route.redirect.status)] = { description: route.redirect.description, headers: { ...commonHeaders, ...route.redirect.headers } };
  const implied = (code: ErrorStatus) => code === 500 || code === 429 || ((code === 415 || code === 413) && route.body !== undefined) || ((code === 401 || code === 403) && route.auth === 'bearer') || (code === 401 && route.auth === 'link');
  for (const code of ERROR_STATUSES) {
    const own = route.errors[code];
    const meaning = code === 409 && idempotent(route) ? idempotencyConflict(own) : own;
    if (meaning === undefined && !implied(code)) continue;
    result[String(code)] = { $ref: `#/components/responses/${ERROR_RESPONSES[code].name}`, ...(meaning === undefined ? {} : { description: meaning }) };
  }
  return result;
}

/** The note a route that takes authoring sessions carries, after its own description. */
function authoringNote(route: RouteDeclaration): string | undefined {
  const allowed = route.authoring;
  if (!allowed) return undefined;
  const whose = allowed.kind === 'any' ? 'Takes an authoring session' : `Also takes an authoring session of this ${allowed.kind}`;
  return `${whose} (\`authoringSession\`${allowed.mode === 'full' ? ', opened in `full` mode' : ''}).`;
}

function operation(route: RouteDeclaration): OpenApiOperation {
  const description = [route.description, authoringNote(route)].filter((part) => part !== undefined).join(' ');
  const security: Record<string, string[]>[] = route.auth !== 'bearer' ? [] : route.authoring ? [{ bearerAuth: [] }, { authoringSession: [] }] : [{ bearerAuth: [] }];
  const parameters = [...pathParameters(route), ...(route.query ? queryParameters(route.query) : []), ...(idempotent(route) ? [IDEMPOTENCY_KEY] : [])];
  const body = requestBody(route);
  return {
    operationId: route.operationId,
    summary: route.summary,
    ...(description === '' ? {} : { description }),
    tags: [route.tag],
    security, // 'link' and 'none': no header; a link route's credential is its {token}
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(body === undefined ? {} : { requestBody: body }),
    responses: responses(route),
  };
}

function paths(routes: readonly RouteDef[]): OpenApiDocument['paths'] {
  const result: OpenApiDocument['paths'] = {};
  const seen = new Set<string>();
  for (const route of routes) {
    if (seen.has(route.operationId)) throw new Error(`OpenAPI: operationId "${route.operationId}" appears twice in the route manifest`);
    seen.add(route.operationId);
    const item = (result[route.path] ??= {});
    const method = route.method.toLowerCase();
    if (item[method]) throw new Error(`OpenAPI: ${route.method} ${route.path} appears twice in the route manifest`);
    item[method] = operation(route);
  }
  return result;
}

function componentSchemas(): Record<string, SchemaObject> {
  const schemas: Record<string, SchemaObject> = toJsonSchemaDefs(COMPONENT_SCHEMAS, CONVERSION);
  for (const [name, schema] of Object.entries(schemas)) {
    const key = name as ComponentName;
    const described = key === 'Error' ? errorDescription() : COMPONENT_DESCRIPTIONS[key];
    const note = COMPONENT_NOTES[key];
    schema.description = [described, schema.description, note].filter((part) => part).join(' ');
    const example = COMPONENT_EXAMPLES[key];
    if (example !== undefined) schema.examples = [example as NonNullable<SchemaObject['examples']>[number]];
  }
  return { ...schemas, WebhookEvent: WEBHOOK_EVENT_SCHEMA };
}

function errorResponses(): Record<string, object> {
  return Object.fromEntries(Object.entries(ERROR_RESPONSES).map(([code, { name, description }]) => {
    const headers = code === '401' ? { ...commonHeaders, 'WWW-Authenticate': { description: '`Bearer`', schema: { type: 'string' } } }
      : code === '429' ? { ...commonHeaders, 'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer', minimum: 1 } } }
        : commonHeaders;
    return [name, { description, headers, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } }];
  }));
}

const securitySchemes = {
  bearerAuth: {
    type: 'http', scheme: 'bearer', bearerFormat: 'JWT',
    description: 'An access token from `POST /oauth/token`, valid 1 hour (`expires_in`); an expired one is a 401 with reason `token_expired`: request a new one.',
  },
  authoringSession: {
    type: 'http', scheme: 'bearer', bearerFormat: 'JWT',
    description: 'The `session` of `POST /v1/authoring/{token}/open`: only on the routes that say so, only for its one draft or template (another id is a 404); idle 60 minutes, at most 8 hours; `POST /v1/authoring/session` renews it.',
  },
  oauth2: { type: 'oauth2', description: 'OAuth 2.0 client credentials (`client_id`, `client_secret` of your application); the token is then sent as a bearer token', flows: { clientCredentials: { tokenUrl: '/oauth/token', scopes: {} } } },
};

export function buildOpenApi(options: { serverUrl: string }, routes: readonly RouteDef[] = manifest): OpenApiDocument {
  const tags = [...new Set(routes.map((route) => route.tag))];
  return {
    openapi: '3.1.0',
    info: {
      title: 'E-signature service API',
      version: '1.0.0',
      description: API_DESCRIPTION,
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    servers: [{ url: options.serverUrl }],
    tags: tags.map((name) => ({ name, description: TAGS[name] })),
    security: [{ bearerAuth: [] }],
    paths: paths(routes),
    webhooks: webhookOperations(),
    components: {
      schemas: componentSchemas(),
      responses: errorResponses(),
      headers: HEADERS,
      securitySchemes,
    },
  };
}

/** The description built once, in memory (the local runtime; a Lambda reads the file its build wrote). */
export function inMemoryApiDescription(serverUrl: string): ApiDescription {
  let document: OpenApiDocument | undefined;
  return { document: () => Promise.resolve(document ??= buildOpenApi({ serverUrl })) };
}
