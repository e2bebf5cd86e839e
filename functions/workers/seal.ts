import * as v from 'valibot';
import { sealStep } from '#domain/use-cases/sealing.ts';
import { worker } from '#http/lambda.ts';
import type { Deps } from '#shared/deps.ts';

const Input = v.object({ envelopeId: v.string() });

/** Workflow task 1 of seal-envelope: draw, certify, sign and store the sealed PDF. */
export const createHandler = (deps: Deps) => (input: unknown) => sealStep(deps, v.parse(Input, input).envelopeId);

export const handler = worker(createHandler);
