import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type * as v from 'valibot';
import { PayloadTooLarge, ValidationError } from '#shared/kernel/errors.ts';
import { parseBody, type BodyKind, type ParsedBody } from './body.ts';
import { parseWith } from './validation.ts';

/** How a route reads its body: which kinds it accepts, how a parsed body becomes its input, and how it is documented. */
export interface BodyRule<B> {
  accepts: readonly BodyKind[];
  read: (body: ParsedBody) => B | Promise<B>;
  /** For the API description: the JSON schema when the body is JSON (else the route documents its own content). */
  schema?: v.GenericSchema;
  optional?: boolean;
}

/** A JSON body validated by `schema`; an empty body is validated as `{}` when `optional`. */
export function jsonBody<S extends v.GenericSchema>(schema: S, options: { optional?: boolean } = {}): BodyRule<v.InferOutput<S>> {
  return {
    accepts: options.optional ? ['json', 'empty'] : ['json'],
    schema,
    optional: options.optional ?? false,
    read: (body) => {
      if (body.kind === 'empty') return parseWith(schema, {});
      if (body.kind !== 'json') throw ValidationError.at('body', 'must be a JSON object');
      return parseWith(schema, body.value);
    },
  };
}

/**
 * A request body reaches a function only as a base64 string inside Lambda's 6 MB invocation payload (API Gateway's own
 * limit is 10 MB), so a body over about 4.4 MB fails before any code runs, on AWS and in the local runtime alike. What
 * does arrive is held to 4 MB, so the answer near that limit is one 413 that points to the presigned upload.
 */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** The body's bytes. */
function rawBody(event: APIGatewayProxyEventV2): Buffer {
  if (!event.body) return Buffer.alloc(0);
  const raw = Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8');
  if (raw.length > MAX_BODY_BYTES) {
    throw new PayloadTooLarge('The request body is larger than 4 MB, the most this deployment accepts in a request: upload larger PDFs (up to 25 MB) with POST /v1/envelopes/{id}/document/upload-url');
  }
  return raw;
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/**
 * The body as the route's rule reads it. A route that takes no input still answers what it is sent: `{}` and the
 * like pass, malformed JSON is a 400 (decision 5) and any other kind of body a 415, rather than being ignored.
 */
export async function readBody<B>(event: APIGatewayProxyEventV2, rule: BodyRule<B> | undefined): Promise<B> {
  if (rule) return rule.read(await parseBody(rawBody(event), event.headers['content-type'], rule.accepts));
  if (BODY_METHODS.has(event.requestContext.http.method)) await parseBody(rawBody(event), event.headers['content-type'], ['empty', 'json']);
  return undefined as B;
}
