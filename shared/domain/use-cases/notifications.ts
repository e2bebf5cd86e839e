import { downloadUrl, mintDownloadToken, mintSigningToken, signingUrl } from '../../auth/signing-links.ts';
import type { Config } from '../../config.ts';
import { invitationEmail, invitationSms, reminderEmail } from '../messages.ts';
import type { EnvelopeChange } from '../envelope.ts';
import type { Envelope } from '../model.ts';
import type { InvitationOutboxItem, OutboxItem, ReminderOutboxItem } from '../outbox.ts';
import type { EnvelopeRepository } from '#ports/repositories.ts';
import type { JobQueue, Mailer, SmsSender, Workflows } from '#ports/services.ts';

export interface DispatchDeps {
  config: Pick<Config, 'linkSecret' | 'signingUrl'>;
  envelopes: EnvelopeRepository;
  mailer: Mailer;
  sms: SmsSender;
  jobs: JobQueue;
  workflows: Workflows;
}

async function sendInvitations(deps: DispatchDeps, envelope: Envelope, item: InvitationOutboxItem): Promise<void> {
  for (const invitation of item.invitations) {
    const signer = envelope.signers.find((s) => s.id === invitation.link.signerId);
    if (!signer) continue;
    const url = signingUrl(deps.config.signingUrl, await mintSigningToken(deps.config.linkSecret, invitation.link));
    if (invitation.channels.includes('email')) {
      const email = invitationEmail(envelope, signer, url, new Date(invitation.link.expiresAt * 1000));
      await deps.mailer.send({ to: signer.email, ...email });
    }
    if (invitation.channels.includes('sms') && signer.phone) {
      await deps.sms.send({ to: signer.phone, text: invitationSms(envelope, url) });
    }
  }
}

async function sendReminder(deps: DispatchDeps, envelope: Envelope, item: ReminderOutboxItem): Promise<void> {
  const link = envelope.downloadLinks?.find((l) => l.id === item.linkId);
  if (!link || link.downloadedAt || !envelope.deletionAt) return;
  const claims = { envelopeId: envelope.id, linkId: link.id, issuedAt: link.issuedAt, expiresAt: link.expiresAt };
  const url = downloadUrl(deps.config.signingUrl, await mintDownloadToken(deps.config.linkSecret, claims));
  await deps.mailer.send({ to: link.email, ...reminderEmail(envelope, link.name, url, item.daysBefore, envelope.deletionAt) });
}

/** Hands one outbox item to whatever carries it: messages go out, jobs and webhook events to the queue. */
async function dispatchItem(deps: DispatchDeps, envelope: Envelope, item: OutboxItem): Promise<boolean> {
  switch (item.kind) {
    case 'notify':
      await sendInvitations(deps, envelope, item);
      return true;
    case 'reminder':
      await sendReminder(deps, envelope, item);
      return true;
    case 'job':
      if (item.job.type === 'seal') await deps.workflows.startSealing(item.job.envelopeId);
      else await deps.jobs.send(item.job);
      return true;
    case 'event':
      await deps.jobs.send({ type: 'webhook.event', event: item });
      return true;
  }
}

/**
 * Carries out what a committed change queued (messages, jobs, workflows), then removes those outbox items.
 * A failure leaves its item for the outbox sweep to retry; it never undoes the change itself.
 */
export async function dispatchOutbox(deps: DispatchDeps, envelope: Envelope, items: readonly OutboxItem[]): Promise<void> {
  const done: string[] = [];
  for (const item of items) {
    try {
      if (await dispatchItem(deps, envelope, item)) done.push(item.id);
    } catch (error) {
      console.error(JSON.stringify({ level: 'error', msg: 'outbox dispatch failed; left for the sweep', envelopeId: envelope.id, outboxId: item.id, kind: item.kind, error: (error as Error).message }));
    }
  }
  if (done.length > 0) await deps.envelopes.removeOutbox(envelope.id, done);
}

/** Commits a change, then carries out what it queued: the one way use cases write an envelope. */
export async function commitChange(deps: DispatchDeps, change: EnvelopeChange): Promise<void> {
  await deps.envelopes.commit(change);
  await dispatchOutbox(deps, change.after, change.outbox);
}

/** The outbox sweep: anything a crash left undispatched for over a minute goes out now (nothing is lost). */
export async function sweepOutbox(deps: DispatchDeps & { clock: { now(): Date } }, limit = 200): Promise<number> {
  const before = new Date(deps.clock.now().getTime() - 60_000);
  const stale = await deps.envelopes.staleOutbox(before, limit);
  const byEnvelope = new Map<string, OutboxItem[]>();
  for (const item of stale) byEnvelope.set(item.envelopeId, [...(byEnvelope.get(item.envelopeId) ?? []), item]);
  for (const [envelopeId, items] of byEnvelope) {
    const envelope = await deps.envelopes.find(envelopeId);
    if (envelope) await dispatchOutbox(deps, envelope, items);
    else await deps.envelopes.removeOutbox(envelopeId, items.map((i) => i.id));
  }
  return stale.length;
}
