import { UnsupportedMediaType, ValidationError } from '#domain/errors.ts';
import { uploadDocument } from '#domain/use-cases/uploads.ts';
import { bearerAuth } from '#http/auth.ts';
import { lambda } from '#http/lambda.ts';
import { created } from '#http/responses.ts';
import { route, type BodyRule } from '#http/route.ts';
import { IdParams } from '#schemas/common.ts';
import { UploadQuery } from '#schemas/envelopes.ts';
import { documentUploadView } from '#http/views.ts';
import type { Deps } from '#shared/deps.ts';

/** The raw PDF: `application/octet-stream` (spec 4.2) or `application/pdf`; any other type of body is a 415. */
const RAW_TYPES = ['application/octet-stream', 'application/pdf'];

const rawPdf: BodyRule<Uint8Array> = {
  accepts: ['binary', 'empty'],
  read: (body) => {
    if (body.kind === 'binary' && !RAW_TYPES.includes(body.contentType)) {
      throw new UnsupportedMediaType(`This endpoint does not accept ${body.contentType || 'a body without Content-Type'}; send the PDF as application/octet-stream`);
    }
    if (body.kind !== 'binary' || body.bytes.byteLength === 0) throw ValidationError.at('body', 'must be the PDF bytes (Content-Type: application/octet-stream)');
    return body.bytes;
  },
};

export const createHandler = (deps: Deps) =>
  route({ authenticate: bearerAuth(deps), params: IdParams, query: UploadQuery, body: rawPdf }, async ({ params, query, body, principal, meta }) => {
    const document = await uploadDocument(deps, principal.appId, params.id, { bytes: body, filename: query.filename ?? null }, meta);
    return created(documentUploadView(document));
  });

export const handler = lambda(createHandler);
