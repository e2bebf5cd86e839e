import { ValidationError } from '#domain/errors.ts';
import type { UploadInput } from '#domain/inputs.ts';
import { createEnvelope } from '#domain/use-cases/uploads.ts';
import { bearerAuth } from '#http/auth.ts';
import type { ParsedBody } from '#http/body.ts';
import { lambda } from '#http/lambda.ts';
import { created } from '#http/responses.ts';
import { route, type BodyRule } from '#http/route.ts';
import { parseWith } from '#http/validation.ts';
import { envelopeView } from '#http/views.ts';
import { CreateEnvelopeRequest } from '#schemas/envelopes.ts';
import type { Deps } from '#shared/deps.ts';

interface CreateInput { request: ReturnType<typeof parseRequest>; files: UploadInput[] }

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

/** Variant A: a `data` part holding the JSON request, or flat form fields with `signers`/`fields` as JSON strings. */
function multipartRequest(fields: Record<string, string>): unknown {
  if (fields.data !== undefined) return jsonPart(fields, 'data');
  const flat = (name: string) => (fields[name]?.trim() ? fields[name] : undefined);
  const days = flat('expiresInDays');
  return {
    tenantId: flat('tenantId'), subject: flat('subject'), createdBy: flat('createdBy'), fieldOrigin: flat('fieldOrigin'),
    expiresInDays: days === undefined ? undefined : /^\d+$/.test(days.trim()) ? Number(days) : days,
    signers: jsonPart(fields, 'signers'), fields: jsonPart(fields, 'fields'),
  };
}

/** Told apart by Content-Type (DECISIONS 4): multipart carries the PDF, JSON uploads it later. */
const createBody: BodyRule<CreateInput> = {
  accepts: ['json', 'multipart'],
  read: (body: ParsedBody) => {
    if (body.kind === 'json') return { request: parseRequest(body.value), files: [] };
    if (body.kind !== 'multipart') throw ValidationError.at('body', 'must be JSON or multipart/form-data');
    // Several `file` parts are several documents, in order (ADDITIONS A2); each is named by its filename.
    const files = body.files.filter((f) => f.field === 'file').map((f) => ({ bytes: f.bytes, filename: f.filename }));
    const request = parseRequest(multipartRequest(body.fields));
    if (files.length === 0) throw ValidationError.at('file', 'is required: attach the PDF as the `file` part');
    return { request, files };
  },
};

export const createHandler = (deps: Deps) =>
  route({ authenticate: bearerAuth(deps), body: createBody }, async ({ body, principal, meta }) =>
    created(envelopeView(await createEnvelope(deps, principal.appId, body.request, body.files, meta))));

export const handler = lambda(createHandler);
