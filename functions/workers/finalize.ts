import * as v from 'valibot';
import { finalizeStep } from '#domain/use-cases/sealing.ts';
import { task } from '#http/endpoint.ts';
import { lambda } from '#http/lambda.ts';

const SealedFile = v.object({ sourceDocumentId: v.string(), blobKey: v.string(), sha256: v.string(), pageCount: v.number(), sizeBytes: v.number(), uncovered: v.optional(v.array(v.string())) });
const Input = v.object({ envelopeId: v.string(), stageId: v.string(), sealedAt: v.string(), files: v.array(SealedFile) });

/** Workflow task 2 of seal-envelope: complete the envelope in one transaction; the completion emails go out from its outbox. */
export const definition = task({
  // Completes the envelope; its outbox emails every party the sealed copy (attached up to 7 MB) and a portal link.
  // A round that lost to a completed envelope deletes its own file.
  access: {
    table: 'write', secrets: ['LINK_SECRET'], jobs: true, mail: true, documents: { read: ['sealed/'], delete: ['sealed/'] },
    memorySize: 1024, timeoutSeconds: 120,
  },
}, (deps) => (input: unknown) => finalizeStep(deps, v.parse(Input, input)));

export const handler = lambda(definition);
