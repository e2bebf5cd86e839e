/** The API's codes in plain words: statuses, and each audit event as a sentence about who did what. */
import { t, type ConsoleKey } from './console-i18n.ts';
import type { AuditEvent, Envelope, EnvelopeStatus, Signer } from './console-model.ts';

const STATUS: Record<EnvelopeStatus, ConsoleKey> = {
  draft: 'status.draft', sent: 'status.sent', in_progress: 'status.in_progress', completed: 'status.completed',
  declined: 'status.declined', voided: 'status.voided', expired: 'status.expired',
};
export const statusLabel = (status: EnvelopeStatus) => t(STATUS[status]);

const SIGNER_STATUS: Record<Signer['status'], ConsoleKey> = {
  pending: 'signerStatus.pending', sent: 'signerStatus.sent', viewed: 'signerStatus.viewed', signed: 'signerStatus.signed', declined: 'signerStatus.declined',
};
export const signerStatusLabel = (status: Signer['status']) => t(SIGNER_STATUS[status]);

/** Each event the audit trail records, by its dotted name; one the console does not know reads as audit.other. */
const SENTENCES: Record<string, ConsoleKey> = {
  'envelope.created': 'audit.envelope.created',
  'envelope.updated': 'audit.envelope.updated',
  'envelope.sent': 'audit.envelope.sent',
  'envelope.completed': 'audit.envelope.completed',
  'envelope.sealed': 'audit.envelope.sealed',
  'envelope.seal_failed': 'audit.envelope.seal_failed',
  'envelope.seal_retried': 'audit.envelope.seal_retried',
  'envelope.seal_stalled': 'audit.envelope.seal_stalled',
  'envelope.declined': 'audit.envelope.declined',
  'envelope.voided': 'audit.envelope.voided',
  'envelope.expired': 'audit.envelope.expired',
  'signer.added': 'audit.signer.added',
  'signer.invited': 'audit.signer.invited',
  'signer.reminded': 'audit.signer.reminded',
  'signer.viewed': 'audit.signer.viewed',
  'signer.consented': 'audit.signer.consented',
  'signer.signed': 'audit.signer.signed',
  'signer.declined': 'audit.signer.declined',
  'signer.otp_requested': 'audit.signer.otp_requested',
  'signer.otp_verified': 'audit.signer.otp_verified',
  'signer.otp_failed': 'audit.signer.otp_failed',
  'signer.otp_locked': 'audit.signer.otp_locked',
  'signer.otp_unlocked': 'audit.signer.otp_unlocked',
  'signer.invitation_failed': 'audit.signer.invitation_failed',
  'signer.embedded_url_issued': 'audit.signer.embedded_url_issued',
  'signer.reassigned': 'audit.signer.reassigned',
  'document.uploaded': 'audit.document.uploaded',
  'document.removed': 'audit.document.removed',
  'document.downloaded': 'audit.document.downloaded',
  'document.purged': 'audit.document.purged',
  'document.purge_reminder_sent': 'audit.document.purge_reminder_sent',
  'document.archive_renewed': 'audit.document.archive_renewed',
  'field.added': 'audit.field.added',
  'notification.failed': 'audit.notification.failed',
};

const text = (value: unknown) => (typeof value === 'string' ? value : '');
/** A person the detail names (`{ name, email }`): by name, else email. */
const person = (value: unknown) => (value && typeof value === 'object' ? text((value as { name?: unknown }).name) || text((value as { email?: unknown }).email) : '') || t('actor.someone');

/** Who an actor is: a signer by name, a console user by email, else the service or the application. */
function who(actor: string, signers: Map<string, Signer>): string {
  if (actor.startsWith('signer:')) return signers.get(actor.slice('signer:'.length))?.name ?? t('actor.signer');
  if (actor.startsWith('user:')) return actor.slice('user:'.length);
  if (actor === 'system') return t('actor.system');
  return t('actor.application');
}

/** The event as one sentence ("Ana Example signed."), naming the signer it concerns by name. */
export function auditSentence(event: AuditEvent, envelope: Pick<Envelope, 'signers'>): string {
  const signers = new Map(envelope.signers.map((s) => [s.id, s]));
  const detail = event.detail ?? {};
  const signerId = text(detail.signerId) || (event.actor.startsWith('signer:') ? event.actor.slice('signer:'.length) : '');
  const signer = signers.get(signerId)?.name ?? (text(detail.email) || t('actor.signer'));
  const values = { who: who(event.actor, signers), signer, name: text(detail.name) || t('actor.document'), email: text(detail.email) || t('actor.someone'), event: event.event,
    from: person(detail.from), to: person(detail.to) };
  const key = SENTENCES[event.event];
  return key ? t(key, values) : t('audit.other', values);
}
