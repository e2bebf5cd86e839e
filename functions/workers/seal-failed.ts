import * as v from 'valibot';
import { sealFailed } from '#shared/sealing/sealing-actions.ts';
import { task } from '#shared/http/endpoint.ts';
import { SealFailedInput } from '#shared/background/workflow-schemas.ts';
import { lambda } from '#shared/http/lambda.ts';

/** Cause is the Lambda error's JSON (`{"errorType","errorMessage",...}`) when a function failed; anything else as it came. */
function describe(error: SealFailedInput['error']): string {
  try {
    const cause = JSON.parse(error.Cause) as { errorMessage?: unknown };
    if (typeof cause.errorMessage === 'string') return `${error.Error}: ${cause.errorMessage}`.slice(0, 1000);
  } catch {
    // not JSON: keep the text
  }
  return `${error.Error}${error.Cause ? `: ${error.Cause}` : ''}`.slice(0, 1000);
}

/** Workflow catch of seal-envelope: a failed round records why on the envelope (the seal sweep starts the next). */
export const definition = task({
  // The seal workflow's catch: records why a round failed.
  access: { table: 'write', jobs: true, timeoutSeconds: 30 },
}, (deps) => (input: unknown) => {
  const { envelopeId, round, error } = v.parse(SealFailedInput, input);
  return sealFailed(deps, envelopeId, round, describe(error));
});

export const handler = lambda(definition);
