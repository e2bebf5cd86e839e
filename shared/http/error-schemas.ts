/** The error body every route answers with (shared/http/http-errors.ts), and the API description route's body. */
import * as v from 'valibot';
import { ERROR_REASONS } from '#shared/kernel/errors.ts';
import { fieldErrors } from './response-primitives.ts';

/** One body that is both published error shapes (decision 5). */
export const ErrorResponse = v.object({
  error: v.pipe(v.string(), v.description('Machine code'), v.examples(['validation_error', 'invalid_state', 'not_found'])),
  reason: v.pipe(v.nullable(v.picklist(ERROR_REASONS)), v.description('Why, where one code has several causes (the signing page picks its screen by it); null otherwise. Never parse `message`.')),
  message: v.string(),
  details: v.pipe(v.nullable(fieldErrors), v.description('Same map as `errors`, or null when it is empty')),
  type: v.pipe(v.string(), v.description('Same machine code as `error`')),
  title: v.string(),
  status: v.pipe(v.number(), v.integer(), v.minValue(400), v.maxValue(599)),
  errors: v.pipe(fieldErrors, v.description('Field path (e.g. `signers[0].email`) to messages; empty when not a validation error')),
  requestId: v.pipe(v.string(), v.description('Also in the X-Request-Id header; quote it when reporting a problem')),
  downloadUrl: v.optional(v.pipe(v.string(), v.description('Only on a signing link\'s 410 `already_signed` once the envelope is complete: the signer\'s download page'))),
});

export const OpenApiDocumentResponse = v.looseObject({
  openapi: v.pipe(v.string(), v.examples(['3.1.0'])),
  info: v.looseObject({ title: v.string(), version: v.string() }),
  paths: v.record(v.string(), v.unknown()),
});
