import * as v from 'valibot';
import { sealStep } from '#shared/sealing/sealing-actions.ts';
import { task } from '#shared/http/endpoint.ts';
import { SealInput } from '#shared/background/workflow-schemas.ts';
import { lambda } from '#shared/http/lambda.ts';

/** Workflow task 1 of seal-envelope: draw, certify, sign and store the sealed PDF. */
export const definition = task({
  // Sized for a 25 MB, 500-page PDF (decision 45): reads the original, the drawn signatures and the signers' attachments, stages sealed/ (a stage
  // record in the table names it until finalize's commit does).
  access: {
    table: 'write', documents: { read: ['original/', 'signatures/', 'attachments/'], write: ['sealed/'] }, sign: true,
    memorySize: 2048, timeoutSeconds: 300,
  },
}, (deps) => (input: unknown) => sealStep(deps, v.parse(SealInput, input).envelopeId));

export const handler = lambda(definition);
