/**
 * Reassignment by the sender (bearer) or by the signer from the signing page (when the envelope allows it): one
 * transaction replaces the identity and, when the slot's group is current, mints and sends the new person's link.
 */
import { Forbidden, NotFound } from '../kernel/errors.ts';
import { parseId } from '../kernel/ids.ts';
import type { Envelope, RequestMeta, Signer } from '../kernel/model.ts';
import type { Ctx } from '../kernel/change.ts';
import { reassignSigner, type ReassignedBy, type ReassignInput } from './reassignment.ts';
import { withNewLinks } from './routing-actions.ts';
import { mutateEnvelope } from '../signing/signing-context.ts';
import { withLink, type SigningDeps } from '../signing/signing-actions.ts';

async function reassigned(deps: SigningDeps, envelope: Envelope, signerId: string, input: ReassignInput, by: ReassignedBy, ctx: Ctx) {
  const done = reassignSigner(envelope, signerId, input, by, ctx);
  if (!done.invite) return { change: done.change, result: done.signer.id };
  const linked = await withNewLinks(deps, done.change, [done.signer], ctx);
  return { change: linked.change, result: done.signer.id };
}

/** POST /v1/envelopes/{id}/signers/{signerId}/reassign: the signer as they now stand. */
export async function reassignBySender(deps: SigningDeps, appId: string, rawId: string, rawSignerId: string, input: ReassignInput, meta: RequestMeta): Promise<Signer> {
  const signerId = parseId('sgn', rawSignerId);
  const { envelope, result } = await mutateEnvelope(deps, appId, rawId, meta, (current, ctx) => {
    if (!signerId) throw new NotFound('Signer not found on this envelope');
    return reassigned(deps, current, signerId, input, 'sender', ctx);
  });
  const signer = envelope.signers.find((s) => s.id === result);
  if (!signer) throw new Error(`signer ${result} vanished from its envelope`);
  return signer;
}

/** POST /v1/signing/{token}/reassign: the signer names who signs instead; their link stops working at once. */
export async function reassignBySigner(deps: SigningDeps, token: string, input: Pick<ReassignInput, 'name' | 'email' | 'reason'>, meta: RequestMeta) {
  await withLink(deps, token, meta, 'reassign', ({ envelope, signer }, ctx) => {
    if (!envelope.allowReassign) throw new Forbidden('The sender does not allow handing this envelope to someone else', {}, 'reassign_not_allowed');
    return reassigned(deps, envelope, signer.id, input, 'signer', ctx);
  });
  return { reassigned: true as const };
}
