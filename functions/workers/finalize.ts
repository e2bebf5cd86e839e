import * as v from 'valibot';
import type { Envelope } from '#shared/kernel/model.ts';
import type { Submission } from '#shared/signing/submission.ts';
import { finalizeStep } from '#shared/sealing/sealing-actions.ts';
import { task } from '#shared/http/endpoint.ts';
import { FinalizeInput } from '#shared/background/workflow-schemas.ts';
import { lambda } from '#shared/http/lambda.ts';
import { tagEnvelope } from '#shared/retention/retention-actions.ts';

/**
 * Workflow task 2 of seal-envelope: complete the envelope in one transaction; the completion emails go out from its
 * outbox, and the retention tags are put here too (no jobs-queue round trip), the queue taking over if that fails.
 */
export const definition = task({
  // Completes the envelope; its outbox emails every party the sealed copy (attached up to 7 MB) and a portal link,
  // and tags every blob of the envelope with its retention class. A round that lost to a completed envelope deletes its own file.
  access: {
    table: 'write', secrets: ['LINK_SECRET'], jobs: true, mail: true,
    documents: { read: ['sealed/'], delete: ['sealed/'], tag: ['original/', 'sealed/', 'signatures/', 'attachments/'] },
    memorySize: 1024, timeoutSeconds: 120,
  },
}, (deps) => (input: unknown) => {
  // The completion's read brings the submissions with the envelope: the tags are put from them, not from a second read.
  const read: { submissions?: readonly Submission[] } = {};
  const inline = { 'retention.tag': async (envelope: Envelope) => { await tagEnvelope(deps, envelope, read.submissions); } };
  return finalizeStep({ ...deps, inline }, v.parse(FinalizeInput, input), read);
});

export const handler = lambda(definition);
