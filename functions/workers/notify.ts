import * as v from 'valibot';
import { notifyStep } from '#domain/use-cases/sealing.ts';
import { worker } from '#http/lambda.ts';
import type { Deps } from '#shared/deps.ts';

const Input = v.object({ envelopeId: v.string() });

/** Workflow task 3 of seal-envelope: email every party the sealed copy (or a portal link). */
export const createHandler = (deps: Deps) => (input: unknown) => notifyStep(deps, v.parse(Input, input).envelopeId);

export const handler = worker(createHandler);
