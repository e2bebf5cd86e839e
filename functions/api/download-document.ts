import { downloadSealed } from '#domain/use-cases/download.ts';
import { lambda } from '#http/lambda.ts';
import { binary } from '#http/responses.ts';
import { route } from '#http/route.ts';
import { TokenParams } from '#schemas/signing.ts';
import type { Deps } from '#shared/deps.ts';
import { pdfFilename } from './get-document.ts';

export const createHandler = (deps: Deps) =>
  route({ params: TokenParams }, async ({ params, meta }) => {
    const { envelope, sealed, bytes } = await downloadSealed(deps, params.token, meta);
    const filename = pdfFilename(envelope.subject, envelope.id, 'sealed');
    const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/"/g, '');
    return binary(bytes, 'application/pdf', {
      'content-disposition': `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`,
      'x-document-sha256': sealed.sha256,
    });
  });

export const handler = lambda(createHandler);
