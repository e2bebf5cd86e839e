import { verifyChain } from '#shared/kernel/audit-chain.ts';
import { readEnvelope } from '#shared/envelopes/envelope-actions.ts';
import { envelopeWrite, json, respond, route } from '#shared/http/endpoint.ts';
import { NO_ENVELOPE } from '#shared/http/error-docs.ts';
import { lambda } from '#shared/http/lambda.ts';
import { IdParams } from '#shared/http/common-schemas.ts';
import { AuditVerificationResponse } from '#shared/envelopes/envelope-response-schemas.ts';

export const definition = route({
  method: 'GET', path: '/v1/envelopes/{id}/audit/verify', auth: 'bearer', tag: 'Envelopes',
  operationId: 'verifyAudit', summary: "Recompute the envelope's audit hash chain",
  description: "Recomputes every entry's hash from its content and the previous hash, and says whether the chain is intact or at which entry it breaks.",
  params: IdParams,
  success: { status: 200, description: 'Whether the audit hash chain recomputes to the recorded head', content: json(AuditVerificationResponse) },
  errors: { 404: NO_ENVELOPE },
  access: { ...envelopeWrite },
}, (deps) => async ({ params, principal }) => {
  const { envelope, auditLog } = await readEnvelope(deps, principal.appId, params.id);
  const verdict = verifyChain(envelope.id, auditLog);
  const headMatches = verdict.valid && verdict.head.hash === envelope.auditHead.hash && verdict.head.seq === envelope.auditHead.seq;
  return respond(AuditVerificationResponse, {
    envelopeId: envelope.id,
    valid: verdict.valid && headMatches,
    events: auditLog.length,
    chainHead: envelope.auditHead.hash,
    ...(verdict.valid ? (headMatches ? {} : { brokenAtSeq: verdict.head.seq + 1, reason: 'the chain ends before the recorded head' }) : { brokenAtSeq: verdict.brokenAtSeq, reason: verdict.reason }),
  });
});

export const handler = lambda(definition);
