import { sweepStalledSeals } from '#shared/sealing/sealing-actions.ts';
import { worker } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';

/** Runs every minute: a fully signed envelope still not completed when its check falls due gets its next seal round. */
export const definition = worker({
  name: 'seal-sweep',
  trigger: { kind: 'schedule', everySeconds: 60 },
  // A fully signed envelope still not completed gets its next seal round (a new execution).
  access: { table: 'write', jobs: true, starts: ['seal'], timeoutSeconds: 120 },
}, (deps) => () => sweepStalledSeals(deps));

export const handler = lambda(definition);
