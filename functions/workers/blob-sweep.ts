import { sweepAbandonedStages } from '#shared/envelopes/blob-actions.ts';
import { worker } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';

/** Runs hourly: blobs staged a day ago for a commit that never came (a crash, or a presigned upload never completed) are deleted (decision 19). */
export const definition = worker({
  name: 'blob-sweep',
  trigger: { kind: 'schedule', everySeconds: 3600 },
  // Blobs staged for a commit that never came are deleted a day later.
  access: { table: 'write', documents: { delete: ['original/', 'sealed/', 'signatures/', 'uploads/', 'attachments/'] }, timeoutSeconds: 300 },
}, (deps) => async (): Promise<{ swept: number }> => ({ swept: await sweepAbandonedStages(deps) }));

export const handler = lambda(definition);
