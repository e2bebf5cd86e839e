import { mintSigningToken, sha256Hex, signingUrl } from '../kernel/tokens.ts';
import { changeOf, linkClaimsFor, withInvitations, type Ctx, type EnvelopeChange, type MintedLink } from './envelope.ts';
import { InvalidState, NotFound } from '../kernel/errors.ts';
import { parseId } from '../kernel/ids.ts';
import type { Envelope, RequestMeta, Signer } from '../kernel/model.ts';
import { unlockOtp } from '../signing/otp-budget.ts';
import { advanceRouting } from '../signing/signing.ts';
import { mutateEnvelope, transactById } from '../signing/signing-context.ts';
import type { SigningDeps } from '../signing/signing-actions.ts';

/** Mints a link for each signer and attaches the invitations (hashes on the signers, messages in the outbox). */
export async function withNewLinks(deps: SigningDeps, change: EnvelopeChange, signers: readonly Signer[], ctx: Ctx) {
  const urls = new Map<string, string>();
  const minted: MintedLink[] = [];
  for (const signer of signers) {
    const claims = linkClaimsFor(change.after, signer, ctx);
    const token = await mintSigningToken(deps.config.linkSecret, claims);
    urls.set(signer.id, signingUrl(deps.config.signingUrl, token));
    minted.push({ claims, tokenHash: sha256Hex(token) });
  }
  return { change: withInvitations(change, minted, ctx), urls };
}

/** The routing.advance job: invites the group if it is still waiting. Safe to run twice (a redelivery is a no-op). */
export async function runRoutingAdvance(deps: SigningDeps, envelopeId: string, routingOrder: number): Promise<'invited' | 'nothing_to_do'> {
  const done = await transactById(deps, envelopeId, async (envelope, ctx) => {
    const advanced = advanceRouting(envelope, routingOrder, ctx);
    if (!advanced) return { change: null, result: null };
    return { change: (await withNewLinks(deps, advanced.change, advanced.invited, ctx)).change, result: null };
  });
  return done?.change ? 'invited' : 'nothing_to_do';
}

/**
 * Re-issues a live signer's link: the previous link stops working at once. A link locked after too many one-time
 * codes is unlocked with a fresh budget (`signer.otp_unlocked`); an unlocked link's budget carries over.
 */
export async function resendLink(deps: SigningDeps, appId: string, rawId: string, rawSignerId: string, meta: RequestMeta) {
  const signerId = parseId('sgn', rawSignerId);
  const { result } = await mutateEnvelope(deps, appId, rawId, meta, async (envelope: Envelope, ctx) => {
    const signer = envelope.signers.find((s) => s.id === signerId);
    if (!signer) throw new NotFound('Signer not found on this envelope');
    if (envelope.status !== 'sent' && envelope.status !== 'in_progress') throw new InvalidState(`Cannot resend: the envelope is ${envelope.status}`);
    if (signer.status !== 'sent' && signer.status !== 'viewed') {
      throw new InvalidState(signer.status === 'pending' ? 'This signer has not been invited yet: their routing group comes later' : `Cannot resend: the signer has ${signer.status}`);
    }
    const unlocked = unlockOtp(envelope, signer, ctx);
    const base = changeOf(envelope, unlocked.envelope, [...unlocked.drafts, {
      event: 'signer.invited', actor: meta.actor ?? 'system', ip: meta.ip, userAgent: meta.userAgent, detail: { signerId: signer.id, email: signer.email, resent: true },
    }], [], ctx);
    const linked = await withNewLinks(deps, base, [signer], ctx);
    const url = linked.urls.get(signer.id);
    if (!url) throw new Error(`no link was made for signer ${signer.id}`);
    return { change: linked.change, result: { signerId: signer.id, signingUrl: url } };
  });
  return result;
}

/** The expiry sweep: every live envelope past its deadline becomes expired (transact applies a passed deadline). */
export async function expireDueEnvelopes(deps: SigningDeps, limit = 500): Promise<number> {
  let expired = 0;
  for (const id of await deps.envelopes.dueForExpiry(deps.clock.now(), limit)) {
    const done = await transactById(deps, id, () => ({ change: null, result: null }));
    if (done?.envelope.status === 'expired') expired++;
  }
  return expired;
}
