import { downloadStatus } from '#shared/envelopes/download-actions.ts';
import { json, respond, route } from '#shared/http/endpoint.ts';
import { DOWNLOAD_LINK_UNUSABLE, SEALED_PURGED } from '#shared/http/error-docs.ts';
import { lambda } from '#shared/http/lambda.ts';
import { DownloadStatusResponse } from '#shared/signing/signing-response-schemas.ts';
import { TokenParams } from '#shared/signing/signing-schemas.ts';

export const definition = route({
  method: 'GET', path: '/v1/download/{token}', auth: 'link', tag: 'Signing',
  operationId: 'getDownload', summary: 'Download portal: is the sealed copy available',
  description: 'The download portal link from the completion email (when the sealed copy was too large to attach). The token is the credential.',
  params: TokenParams,
  success: { status: 200, description: 'Whether the sealed copy can be downloaded', content: json(DownloadStatusResponse) },
  errors: { 401: DOWNLOAD_LINK_UNUSABLE, 410: SEALED_PURGED },
  // The portal reads without committing; the download itself is recorded in the audit chain.
  access: { table: 'read', secrets: ['LINK_SECRET'] },
}, (deps) => async ({ params }) => respond(DownloadStatusResponse, await downloadStatus(deps, params.token)));

export const handler = lambda(definition);
