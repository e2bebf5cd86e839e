import middy from '@middy/core';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import type * as v from 'valibot';
import { PayloadTooLarge, ValidationError } from '#domain/errors.ts';
import { MAX_TOTAL_DOCUMENT_BYTES, type RequestMeta } from '#domain/model.ts';
import { parseBody, type BodyKind, type ParsedBody } from './body.ts';
import { resultForError } from './errors.ts';
import type { HttpResult } from './responses.ts';
import { parseWith } from './validation.ts';

/** Multipart framing around the documents (each at most 25 MB, together 100 MB) needs a little room above them. */
const MAX_BODY_BYTES = MAX_TOTAL_DOCUMENT_BYTES + 1024 * 1024;

export interface HttpRequest<P, Q, B, A> {
  params: P;
  query: Q;
  body: B;
  principal: A;
  headers: Record<string, string | undefined>;
  meta: RequestMeta;
  requestId: string;
}

/** How a route reads its body: which kinds it accepts, and how a parsed body becomes its input. */
export interface BodyRule<B> {
  accepts: readonly BodyKind[];
  read: (body: ParsedBody) => B | Promise<B>;
}

export interface RouteOptions<P, Q, B, A> {
  authenticate?: (headers: Record<string, string | undefined>) => Promise<A>;
  params?: v.GenericSchema<unknown, P>;
  query?: v.GenericSchema<unknown, Q>;
  body?: BodyRule<B>;
}

export type ApiHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<HttpResult>;

/** A JSON body validated by `schema`; an empty body is validated as `{}` when `optional`. */
export function jsonBody<S extends v.GenericSchema>(schema: S, options: { optional?: boolean } = {}): BodyRule<v.InferOutput<S>> {
  return {
    accepts: options.optional ? ['json', 'empty'] : ['json'],
    read: (body) => {
      if (body.kind === 'empty') return parseWith(schema, {});
      if (body.kind !== 'json') throw ValidationError.at('body', 'must be a JSON object');
      return parseWith(schema, body.value);
    },
  };
}

function rawBody(event: APIGatewayProxyEventV2): Buffer {
  if (!event.body) return Buffer.alloc(0);
  const raw = Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8');
  if (raw.length > MAX_BODY_BYTES) throw new PayloadTooLarge('The request body is larger than the documents of an envelope may be (100 MB together, 25 MB each)');
  return raw;
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

const requestIdOf = (event: APIGatewayProxyEventV2) => event.requestContext.requestId || 'unknown';

function metaOf(event: APIGatewayProxyEventV2): RequestMeta {
  return { ip: event.requestContext.http.sourceIp || null, userAgent: event.requestContext.http.userAgent || null };
}

async function readRequest<P, Q, B, A>(event: APIGatewayProxyEventV2, options: RouteOptions<P, Q, B, A>): Promise<HttpRequest<P, Q, B, A>> {
  const headers = event.headers;
  const principal = options.authenticate ? await options.authenticate(headers) : (undefined as A);
  const params = options.params ? parseWith(options.params, event.pathParameters ?? {}, 'path') : ({} as P);
  const query = options.query ? parseWith(options.query, event.queryStringParameters ?? {}, 'query') : ({} as Q);
  let body = undefined as B;
  if (options.body) {
    const parsed = await parseBody(rawBody(event), headers['content-type'], options.body.accepts);
    body = await options.body.read(parsed);
  } else if (BODY_METHODS.has(event.requestContext.http.method)) {
    // A route that takes no input still answers what it is sent: `{}` and the like pass, malformed JSON is a 400
    // (DECISIONS 7) and any other kind of body a 415, rather than being ignored.
    await parseBody(rawBody(event), headers['content-type'], ['empty', 'json']);
  }
  return { params, query, body, principal, headers, meta: metaOf(event), requestId: requestIdOf(event) };
}

const requestIdHeader: middy.MiddlewareObj<APIGatewayProxyEventV2, HttpResult> = {
  after: (request) => {
    if (request.response) request.response.headers['x-request-id'] = requestIdOf(request.event);
  },
  onError: (request) => {
    const requestId = requestIdOf(request.event);
    request.response = resultForError(request.error, requestId);
    request.response.headers['x-request-id'] = requestId;
  },
};

/** The pipeline every API function shares: auth, params, query, body, validation, error mapping, request id. */
export function route<P = Record<string, never>, Q = Record<string, never>, B = undefined, A = undefined>(
  options: RouteOptions<P, Q, B, A>,
  impl: (request: HttpRequest<P, Q, B, A>) => Promise<HttpResult>,
): ApiHandler {
  return middy<APIGatewayProxyEventV2, HttpResult>()
    .use(requestIdHeader)
    .handler(async (event) => impl(await readRequest(event, options)));
}
