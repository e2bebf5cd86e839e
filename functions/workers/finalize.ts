import * as v from 'valibot';
import { finalizeStep } from '#shared/sealing/sealing-actions.ts';
import { task } from '#shared/http/endpoint.ts';
import { FinalizeInput } from '#shared/background/workflow-schemas.ts';
import { lambda } from '#shared/http/lambda.ts';

/** Workflow task 2 of seal-envelope: complete the envelope in one transaction; the completion emails go out from its outbox. */
export const definition = task({
  // Completes the envelope; its outbox emails every party the sealed copy (attached up to 7 MB) and a portal link.
  // A round that lost to a completed envelope deletes its own file.
  access: {
    table: 'write', secrets: ['LINK_SECRET'], jobs: true, mail: true, documents: { read: ['sealed/'], delete: ['sealed/'] },
    memorySize: 1024, timeoutSeconds: 120,
  },
}, (deps) => (input: unknown) => finalizeStep(deps, v.parse(FinalizeInput, input)));

export const handler = lambda(definition);
