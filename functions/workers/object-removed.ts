import type { S3Event } from 'aws-lambda';
import { markObjectRemoved } from '#shared/retention/retention-actions.ts';
import { worker } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';

/** S3 object-deletion events (the retention lifecycle rules): the documents and signers' attachments are marked purged. */
export const definition = worker({
  name: 'object-removed',
  trigger: { kind: 'objectRemoved', prefixes: ['original/', 'sealed/', 'attachments/'] },
  access: { table: 'write', timeoutSeconds: 60 },
}, (deps) => async (event: S3Event): Promise<{ purged: number }> => {
  let purged = 0;
  for (const record of event.Records) {
    const key = decodeURIComponent(record.s3.object.key.replace(/\+/g, ' '));
    if (await markObjectRemoved(deps, key)) purged++;
  }
  return { purged };
});

export const handler = lambda(definition);
