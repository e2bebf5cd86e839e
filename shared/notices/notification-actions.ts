import { downloadUrl, mintDownloadToken, mintSigningToken, signingUrl } from '../kernel/tokens.ts';
import type { Config } from '../config.ts';
import { localeOf } from '../i18n/locales.ts';
import { documentName, originals, sealedOf, type Document, type Envelope } from '../kernel/model.ts';
import type { CompletionOutboxItem, InvitationOutboxItem, JobMessage, NoticeOutboxItem, OutboxItem, ReminderOutboxItem } from './outbox.ts';
import type { EnvelopeRepository } from '#shared/ports/repositories.ts';
import type { BlobStore, Clock, Ids, JobQueue, Logger, Mailer, Metrics, SmsSender, Workflows } from '#shared/ports/services.ts';

/** What loading and committing an envelope needs, in every function that does: time, ids, the repository, logs. */
export interface OutboxDeps {
  config: Pick<Config, 'linkSecret' | 'signingUrl'>;
  clock: Clock;
  ids: Ids;
  envelopes: EnvelopeRepository;
  logger: Logger;
  metrics: Metrics;
}

/** What outbox items go out through: each function has those its access grants (shared/http/access.ts). */
export interface Carriers {
  blobs: BlobStore;
  mailer: Mailer;
  sms: SmsSender;
  jobs: JobQueue;
  workflows: Workflows;
}

/**
 * Any change may queue any kind of item (lazy expiry alone queues events, jobs and notices), so the carriers are
 * optional rather than tracked per change through the types: an item whose carrier a function lacks stays in the
 * outbox, and the outbox sweep, which has them all, sends it a minute later.
 */
export type DispatchDeps = OutboxDeps & Partial<Carriers> & { inline?: InlineJobs };

/**
 * Jobs a function runs itself right after its commit instead of queueing them (it has their grants, and they are
 * cheap): a failure leaves the item for the outbox sweep, which queues it as usual (decision 48). The committed
 * envelope is at hand.
 */
export type InlineJobs = { readonly [T in JobMessage['type']]?: (envelope: Envelope, job: Extract<JobMessage, { type: T }>) => Promise<void> };

/** Completion emails attach every sealed document up to this size together (decision 9), else link to the portal. */
export const MAX_ATTACHMENT_BYTES = 7 * 1024 * 1024;

/** Part of an item went out before a failure: what is left is retried, what was sent is not sent again. */
export class PartlySent extends Error {
  constructor(readonly rest: OutboxItem, override readonly cause: unknown) {
    super((cause as Error | undefined)?.message ?? String(cause));
  }
}

/** Sends each entry in turn; on a failure, the entries not yet sent make the item that is retried. */
async function eachOf<T, I extends OutboxItem>(item: I, entries: readonly T[], rest: (left: T[]) => I, send: (entry: T) => Promise<void>): Promise<void> {
  for (const [i, entry] of entries.entries()) {
    try {
      await send(entry);
    } catch (error) {
      throw new PartlySent(rest(entries.slice(i)), error);
    }
  }
}

/** The mail templates and their catalogues, loaded on the first message sent: the routes that only enqueue never evaluate them. */
async function rendering() {
  const [branding, messages, notices] = await Promise.all([import('./email-branding.ts'), import('./email-messages.ts'), import('./localized-notices.ts')]);
  return { ...branding, ...messages, ...notices };
}

function sendInvitations(deps: OutboxDeps & Pick<Carriers, 'mailer'> & Partial<Carriers>, envelope: Envelope, item: InvitationOutboxItem): Promise<void> {
  return eachOf(item, item.invitations, (invitations) => ({ ...item, invitations }), async (invitation) => {
    const signer = envelope.signers.find((s) => s.id === invitation.link.signerId);
    // A signer who meanwhile signed, declined or got a newer link needs this invitation no more.
    if (signer?.tokenVersion !== invitation.link.version || (signer.status !== 'sent' && signer.status !== 'viewed')) return;
    const url = signingUrl(deps.config.signingUrl, await mintSigningToken(deps.config.linkSecret, invitation.link));
    const expiresAt = new Date(invitation.link.expiresAt * 1000);
    const reminder = item.template === 'signing_reminder';
    const { brandEmail, invitationEmail, invitationSms, recipientLocale, signingReminderEmail, signingReminderSms } = await rendering();
    const locale = recipientLocale(envelope, signer);
    const email = reminder ? signingReminderEmail(envelope, signer.name, url, expiresAt, deps.clock.now(), locale) : invitationEmail(envelope, signer, url, expiresAt, locale);
    if (invitation.channels.includes('email')) await deps.mailer.send({ to: signer.email, ...brandEmail(envelope, locale, email, deps.config.signingUrl, { saysWho: true }) });
    if (invitation.channels.includes('sms') && signer.phone) await carrier(deps, 'sms').send({ to: signer.phone, text: reminder ? signingReminderSms(envelope, url, locale) : invitationSms(envelope, url, locale) });
  });
}

/**
 * The completion email to each recipient: every sealed document attached when together they are at most 7 MiB
 * (decision 9), else none, with the download-portal link in every case.
 */
async function sendCompletion(deps: OutboxDeps & Pick<Carriers, 'mailer' | 'blobs'>, envelope: Envelope, item: CompletionOutboxItem): Promise<void> {
  const sealed = originals(envelope).map((original) => sealedOf(envelope, original)).filter((d): d is Document => d !== undefined);
  const first = sealed[0];
  if (!first) return;
  const attach = sealed.reduce((sum, d) => sum + d.sizeBytes, 0) <= MAX_ATTACHMENT_BYTES;
  const attachments = attach ? await Promise.all(sealed.map(async (document) => {
    const content = await deps.blobs.get(document.blobKey);
    if (!content) throw new Error(`Stored file ${document.blobKey} is missing`);
    return { filename: attachmentName(envelope, document, sealed.length), contentType: 'application/pdf', content };
  })) : [];
  await eachOf(item, item.linkIds, (linkIds) => ({ ...item, linkIds }), async (linkId) => {
    const link = envelope.downloadLinks?.find((l) => l.id === linkId);
    if (!link) return;
    const url = downloadUrl(deps.config.signingUrl, await mintDownloadToken(deps.config.linkSecret, { envelopeId: envelope.id, linkId, issuedAt: link.issuedAt, expiresAt: link.expiresAt }));
    const { brandEmail, completionEmail, recipientLocale } = await rendering();
    const locale = recipientLocale(envelope, envelope.signers.find((s) => s.id === link.signerId));
    const email = completionEmail(envelope, link.name, url, sealed.map((d) => ({ name: documentName(d), sha256: d.sha256 })), attach, first.retentionUntil, locale);
    await deps.mailer.send({ to: link.email, ...brandEmail(envelope, locale, email, deps.config.signingUrl), ...(attach ? { attachments } : {}) });
  });
}

/** The subject names the file; with several documents, each document's own name follows it. */
function attachmentName(envelope: Envelope, document: Document, count: number): string {
  const clean = (text: string) => text.replace(/\.pdf$/i, '').replace(/[^\p{L}\p{N} ._-]+/gu, '').trim();
  const subject = clean(envelope.subject ?? '') || 'document';
  return count > 1 ? `${subject} - ${clean(documentName(document)) || 'document'}.pdf` : `${subject}.pdf`;
}

async function sendReminder(deps: OutboxDeps & Pick<Carriers, 'mailer'>, envelope: Envelope, item: ReminderOutboxItem): Promise<void> {
  const link = envelope.downloadLinks?.find((l) => l.id === item.linkId);
  if (!link || link.downloadedAt || !envelope.deletionAt) return;
  const claims = { envelopeId: envelope.id, linkId: link.id, issuedAt: link.issuedAt, expiresAt: link.expiresAt };
  const url = downloadUrl(deps.config.signingUrl, await mintDownloadToken(deps.config.linkSecret, claims));
  const { brandEmail, recipientLocale, reminderEmail } = await rendering();
  const locale = recipientLocale(envelope, envelope.signers.find((s) => s.id === link.signerId));
  await deps.mailer.send({ to: link.email, ...brandEmail(envelope, locale, reminderEmail(envelope, link.name, url, item.daysBefore, envelope.deletionAt, locale), deps.config.signingUrl) });
}

/** Notices that the envelope ended early (void, decline, expiry) or a link was locked, one per recipient: the jobs worker's `notice.send`. */
export function sendNotices(deps: Pick<Carriers, 'mailer'> & { config: Pick<Config, 'signingUrl'> }, envelope: Envelope, item: NoticeOutboxItem): Promise<void> {
  return eachOf(item, item.recipients, (recipients) => ({ ...item, recipients }), async ({ name, email }) => {
    const { brandEmail, declinedNoticeEmail, expiredNoticeEmail, otpLockedNoticeEmail, reassignedNoticeEmail, recipientLocale, voidedNoticeEmail } = await rendering();
    // A signer reads it in their language; a carbon copy in the envelope's; a person no longer on it in the one the item kept
    const signer = envelope.signers.find((s) => s.email.toLowerCase() === email.toLowerCase());
    const locale = recipientLocale(envelope, item.locale && !signer ? { locale: localeOf(item.locale) } : signer);
    const rendered = item.notice === 'voided' ? voidedNoticeEmail(envelope, name, item.reason, locale)
      : item.notice === 'declined' ? declinedNoticeEmail(envelope, name, item.declinedBy ?? 'A signer', item.reason, locale)
        : item.notice === 'otp_locked' ? otpLockedNoticeEmail(envelope, name, item.lockedSigner ?? { name: 'A signer', email: '' }, locale)
          : item.notice === 'reassigned' ? reassignedNoticeEmail(envelope, name, item.reason, locale)
            : expiredNoticeEmail(envelope, name, locale);
    await deps.mailer.send({ to: email, ...brandEmail(envelope, locale, rendered, deps.config.signingUrl) });
  });
}

/** A carrier the caller checked for (`dispatchItem`): its absence here is a bug, not an item to skip. */
function carrier<K extends keyof Carriers>(deps: Partial<Carriers>, name: K): Carriers[K] {
  const port = deps[name];
  if (!port) throw new Error(`No ${name} in this function`);
  return port;
}

/**
 * Hands one outbox item to whatever carries it: messages go out, jobs and webhook events to the queue. Answers false,
 * touching nothing, when this function lacks the item's carrier: the item stays in the outbox for the sweep.
 */
export async function dispatchItem(deps: DispatchDeps, envelope: Envelope, item: OutboxItem): Promise<boolean> {
  const { mailer, blobs, sms, jobs, workflows } = deps;
  switch (item.kind) {
    case 'notify':
      if (item.template === 'completion') {
        if (!mailer || !blobs) return false;
        await sendCompletion({ ...deps, mailer, blobs }, envelope, item);
      } else if (item.template === 'notice') {
        // Lazy expiry commits from any function that loads the envelope: the jobs worker (which may mail) sends them
        if (!jobs) return false;
        await jobs.send({ type: 'notice.send', notice: item });
      } else {
        if (!mailer || (!sms && item.invitations.some((i) => i.channels.includes('sms')))) return false;
        await sendInvitations({ ...deps, mailer }, envelope, item);
      }
      return true;
    case 'reminder':
      if (!mailer) return false;
      await sendReminder({ ...deps, mailer }, envelope, item);
      return true;
    case 'job':
      if (item.job.type === 'seal') {
        if (!workflows) return false;
        await workflows.startSealing(item.job.envelopeId, item.job.round ?? 1);
      } else if (item.job.type === 'retention.tag' && deps.inline?.['retention.tag']) {
        await deps.inline['retention.tag'](envelope, item.job);
      } else {
        if (!jobs) return false;
        await jobs.send(item.job);
      }
      return true;
    case 'event':
      if (!jobs) return false;
      await jobs.send({ type: 'webhook.event', event: item });
      return true;
  }
}
