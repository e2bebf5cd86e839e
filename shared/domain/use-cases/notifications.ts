import { mintSigningToken, signingUrl } from '../../auth/signing-links.ts';
import type { Config } from '../../config.ts';
import { invitationEmail, invitationSms } from '../messages.ts';
import type { Envelope } from '../model.ts';
import type { InvitationOutboxItem, OutboxItem } from '../outbox.ts';
import type { EnvelopeRepository } from '#ports/repositories.ts';
import type { Mailer, SmsSender } from '#ports/services.ts';

export interface NotifyDeps {
  config: Pick<Config, 'linkSecret' | 'signingUrl'>;
  envelopes: EnvelopeRepository;
  mailer: Mailer;
  sms: SmsSender;
}

async function sendInvitations(deps: NotifyDeps, envelope: Envelope, item: InvitationOutboxItem): Promise<void> {
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

/**
 * Sends the messages a committed change queued, then removes their outbox items. A failure leaves the
 * item in the outbox for the sweep to send again; it never undoes the change itself.
 */
export async function deliverOutbox(deps: NotifyDeps, envelope: Envelope, items: readonly OutboxItem[]): Promise<void> {
  const delivered: string[] = [];
  for (const item of items) {
    if (item.kind !== 'notify') continue; // webhook events are dispatched by the webhook dispatcher
    try {
      await sendInvitations(deps, envelope, item);
      delivered.push(item.id);
    } catch (error) {
      console.error(JSON.stringify({ level: 'error', msg: 'invitation delivery failed; left in outbox', envelopeId: envelope.id, outboxId: item.id, error: (error as Error).message }));
    }
  }
  if (delivered.length > 0) await deps.envelopes.removeOutbox(envelope.id, delivered);
}
