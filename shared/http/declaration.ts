/**
 * What a route declares about itself (shared/http/endpoint.ts has the functions that declare it).
 *
 * Every function declares itself in its own module: a route its method, path, auth kind, the schemas of what it takes
 * and answers, the errors it documents and the access it needs; a worker its trigger; a workflow task its access.
 * From these declarations the manifest (infra/routes.ts), the API description (infra/openapi.ts), the IAM grants
 * (infra/stacks) and the local runtime are all derived, so adding a route touches its module and its use case.
 *
 *   export const definition = route({ method: 'GET', path: '/v1/envelopes/{id}', auth: 'bearer', ... },
 *     (deps) => async ({ params, principal }) => respond(Envelope, envelopeView(await readEnvelope(...))));
 *   export const handler = lambda(definition);
 */
import type * as v from 'valibot';
import type { Access } from './access.ts';
import type { BodyRule } from './body-rules.ts';

export type AuthKind = 'bearer' | 'link' | 'none';
export type Tag = 'Auth' | 'Envelopes' | 'Signing' | 'Templates' | 'Webhooks' | 'Console' | 'Meta';
export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export const ERROR_STATUSES = [400, 401, 403, 404, 409, 410, 413, 415, 429, 500] as const;
export type ErrorStatus = (typeof ERROR_STATUSES)[number];

/** A JSON Schema object, as the API description carries it (for what valibot does not describe: raw PDFs, multipart). */
export type JsonSchemaObject = Record<string, unknown>;

/** One media type of a request or response: a valibot schema (named when it is a component), or JSON Schema. */
export type Media = { schema: v.GenericSchema } | { jsonSchema: JsonSchemaObject; encoding?: Record<string, { contentType: string }> };
export type Content = Record<string, Media>;
export interface HeaderDoc { description: string; schema: JsonSchemaObject }

export const json = (schema: v.GenericSchema): Content => ({ 'application/json': { schema } });
export const PDF_SCHEMA: JsonSchemaObject = { type: 'string', contentMediaType: 'application/pdf' };
export const pdfContent: Content = { 'application/pdf': { jsonSchema: PDF_SCHEMA } };

type ObjectSchema<T> = v.GenericSchema<unknown, T> & { entries: v.ObjectEntries };

/** What a route is, for everything derived from it. `P`, `Q`, `B`: its parsed path parameters, query and body. */
export interface RouteDeclaration<K extends AuthKind = AuthKind, P = unknown, Q = unknown, B = unknown> {
  method: Method;
  path: string;
  auth: K;
  operationId: string;
  summary: string;
  tag: Tag;
  description?: string;
  params?: ObjectSchema<P>;
  query?: ObjectSchema<Q>;
  body?: BodyRule<B>;
  /** The request body as documented, when it is not the JSON schema of `body` (multipart, raw PDF, form). */
  requestContent?: { required: boolean; description?: string; content: Content };
  success: { status: 200 | 201 | 202 | 204; description: string; content?: Content; headers?: Record<string, HeaderDoc> };
  /** A redirect the route may answer instead (a large PDF: 302 to a presigned URL, decision 18). */
  redirect?: { status: 302; description: string; headers: Record<string, HeaderDoc> };
  /** What each error status means here; 401 (bearer, link), 403 (bearer), 415 (a body) and 500 are implied. */
  errors: Partial<Record<ErrorStatus, string>>;
  /** What the function's code uses (infra/stacks grants exactly this). */
  access: Access;
  /**
   * Top-level fields of the answer that are shown once and never stored: an Idempotency-Key repeat answers them as
   * null (a secret lives only sealed, never in an idempotency record).
   */
  withheldFromReplay?: readonly string[];
  /** Administrators only: a console user with the `sender` role is answered 403 (client credentials act as an administrator). */
  adminOnly?: true;
}

