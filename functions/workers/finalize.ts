import * as v from 'valibot';
import { finalizeStep } from '#domain/use-cases/sealing.ts';
import { worker } from '#http/lambda.ts';
import type { Deps } from '#shared/deps.ts';

const SealedFile = v.object({ sourceDocumentId: v.string(), blobKey: v.string(), sha256: v.string(), pageCount: v.number(), sizeBytes: v.number(), uncovered: v.optional(v.array(v.string())) });
const Input = v.object({ envelopeId: v.string(), stageId: v.string(), sealedAt: v.string(), files: v.array(SealedFile) });

/** Workflow task 2 of seal-envelope: complete the envelope in one transaction; the completion emails go out from its outbox. */
export const createHandler = (deps: Deps) => (input: unknown) => finalizeStep(deps, v.parse(Input, input));

export const handler = worker(createHandler);
