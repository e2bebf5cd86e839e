import { verifyChain } from '#domain/audit-chain.ts';
import { readEnvelope } from '#domain/use-cases/envelopes.ts';
import { bearerAuth } from '#http/auth.ts';
import { lambda } from '#http/lambda.ts';
import { ok } from '#http/responses.ts';
import { route } from '#http/route.ts';
import { IdParams } from '#schemas/common.ts';
import type { Deps } from '#shared/deps.ts';

export const createHandler = (deps: Deps) =>
  route({ authenticate: bearerAuth(deps), params: IdParams }, async ({ params, principal }) => {
    const { envelope, auditLog } = await readEnvelope(deps, principal.appId, params.id);
    const verdict = verifyChain(envelope.id, auditLog);
    const headMatches = verdict.valid && verdict.head.hash === envelope.auditHead.hash && verdict.head.seq === envelope.auditHead.seq;
    return ok({
      envelopeId: envelope.id,
      valid: verdict.valid && headMatches,
      events: auditLog.length,
      chainHead: envelope.auditHead.hash,
      ...(verdict.valid ? (headMatches ? {} : { brokenAtSeq: verdict.head.seq + 1, reason: 'the chain ends before the recorded head' }) : { brokenAtSeq: verdict.brokenAtSeq, reason: verdict.reason }),
    });
  });

export const handler = lambda(createHandler);
