import { sealedByHash } from '#shared/verify/verification-actions.ts';
import { json, respond, route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { SealedHashParams, SealRecordResponse } from '#shared/verify/verification-schemas.ts';

export const definition = route({
  method: 'GET', path: '/v1/verify/{sha256}', auth: 'none', tag: 'Meta',
  operationId: 'verifySealedHash', summary: 'Whether this service sealed the file with this SHA-256',
  description: 'No authentication: anyone holding a sealed PDF may ask, by its SHA-256 (the verification page at `/verify` computes it in the browser; '
    + 'the file is never uploaded). The answer names no person, email or id. Rate-limited per address like every unauthenticated route.',
  params: SealedHashParams,
  success: { status: 200, description: 'This service sealed a file with this hash', content: json(SealRecordResponse) },
  errors: { 404: 'This service sealed no file with this hash (or the hash is malformed)' },
  access: { table: 'read' },
}, (deps) => async ({ params }) => respond(SealRecordResponse, await sealedByHash(deps, params.sha256), 200, { 'cache-control': 'no-store' }));

export const handler = lambda(definition);
