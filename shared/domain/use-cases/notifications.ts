import { mintSigningToken, signingUrl } from '../../auth/signing-links.ts';
import type { Config } from '../../config.ts';
import { invitationEmail, invitationSms } from '../messages.ts';
import type { Envelope } from '../model.ts';
import type { InvitationOutboxItem, OutboxItem } from '../outbox.ts';
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

/** Hands one outbox item to whatever carries it; false for webhook events, which the webhook dispatcher owns. */
async function dispatchItem(deps: DispatchDeps, envelope: Envelope, item: OutboxItem): Promise<boolean> {
  switch (item.kind) {
    case 'notify':
      await sendInvitations(deps, envelope, item);
      return true;
    case 'job':
      if (item.job.type === 'seal') await deps.workflows.startSealing(item.job.envelopeId);
      else await deps.jobs.send(item.job);
      return true;
    case 'event':
      return false;
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
