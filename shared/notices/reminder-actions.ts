/**
 * Reminders (decision 37): the scheduled sweep and the manual remind. Each reminder carries the signer's current link
 * (minted again from its stored claims); a signer whose link is gone or about to expire gets a new one, as a resend
 * would. The messages leave through the outbox of the change that records them, never from inside the decision.
 */
import { mintSigningToken, sha256Hex } from '../kernel/tokens.ts';
import { linkClaimsFor, withInvitations, type Ctx, type EnvelopeChange, type MintedLink } from '../envelopes/envelope.ts';
import type { Envelope, RequestMeta, Signer } from '../kernel/model.ts';

import { dueForReminder, manualReminderTargets, recordReminders } from './reminders.ts';
import { mutateEnvelope, transactById } from '../signing/signing-context.ts';
import type { SigningDeps } from '../signing/signing-actions.ts';
import type { LinkClaims } from '../kernel/tokens.ts';

/** A link that still has a day to run is sent again as it is. */
const REUSE_MARGIN_SECONDS = 86_400;

function reusable(signer: Signer, ctx: Ctx): LinkClaims | null {
  const link = signer.link;
  const now = Math.floor(ctx.now.getTime() / 1000);
  if (!link || !signer.linkHash) return null;
  return link.version === signer.tokenVersion && link.expiresAt - now > REUSE_MARGIN_SECONDS ? link : null;
}

/** Records the reminders and queues them, each with a link that works. */
async function remind(deps: SigningDeps, envelope: Envelope, signers: readonly Signer[], manual: boolean, ctx: Ctx): Promise<EnvelopeChange> {
  const change = recordReminders(envelope, signers, manual, ctx);
  const reused: LinkClaims[] = [];
  const minted: MintedLink[] = [];
  for (const signer of signers) {
    const current = reusable(signer, ctx);
    if (current) {
      reused.push(current);
      continue;
    }
    const claims = linkClaimsFor(change.after, signer, ctx);
    minted.push({ claims, tokenHash: sha256Hex(await mintSigningToken(deps.config.linkSecret, claims)) });
  }
  return withInvitations(change, minted, ctx, 'signing_reminder', reused);
}

/** The sweep's look at one envelope: the reminders due now, if any (a second run finds none: each moved the schedule on). */
export async function sendDueReminders(deps: SigningDeps, envelopeId: string): Promise<number> {
  const done = await transactById(deps, envelopeId, async (envelope, ctx) => {
    const due = dueForReminder(envelope, ctx.now);
    if (due.length === 0) return { change: null, result: 0 };
    return { change: await remind(deps, envelope, due, false, ctx), result: due.length };
  });
  return done?.result ?? 0;
}

/** The reminder sweep (every few minutes on the service clock): every envelope with a reminder due. */
export async function sweepReminders(deps: SigningDeps, limit = 200): Promise<{ envelopes: number; reminded: number }> {
  const ids = await deps.envelopes.dueForReminder(deps.clock.now(), limit);
  let reminded = 0;
  for (const id of ids) reminded += await sendDueReminders(deps, id);
  return { envelopes: ids.length, reminded };
}

/** POST /v1/envelopes/{id}/remind: the current routing group now; at most once an hour per envelope (429). */
export async function remindNow(deps: SigningDeps, appId: string, rawId: string, meta: RequestMeta) {
  const { envelope, result } = await mutateEnvelope(deps, appId, rawId, meta, async (current, ctx) => {
    const signers = manualReminderTargets(current, ctx.now);
    return { change: await remind(deps, current, signers, true, ctx), result: { signers, remindedAt: ctx.now.toISOString() } };
  });
  return {
    envelopeId: envelope.id, remindedAt: result.remindedAt,
    signers: result.signers.map((s) => ({ id: s.id, name: s.name, email: s.email })),
  };
}
