import { localeOf, type Locale } from '../i18n/locales.ts';
import { genesis, type AuditDraft } from '../kernel/audit-chain.ts';
import { changeOf, requireDraft, type Ctx, type EnvelopeChange } from '../kernel/change.ts';
import { InvalidState, ValidationError, type FieldErrors } from '../kernel/errors.ts';
import { DEFAULT_TENANT, isTerminal, originalDocument, type AuthMethod, type Document, type Envelope, type Field, type FieldOrigin, type RequestMeta, type Signer } from '../kernel/model.ts';
import type { EventOutboxItem, InvitationOutboxItem, JobOutboxItem, WebhookEventName } from '../notices/outbox.ts';
import { startRetention } from '../retention/retention.ts';
import { assertNoErrors } from './field-placement.ts';
import { assertDocumentLimits } from './envelope-documents.ts';
import { fieldErrors, fillable, MAX_FIELDS, normalised, type FieldInput } from './fields.ts';
import { noticeItems } from '../notices/notice-items.ts';
import type { CarbonCopy, DocumentPages, ReminderSettings } from '../kernel/model.ts';
import type { LinkClaims } from '../kernel/tokens.ts';

export { changeOf, requireDraft, type Ctx, type EnvelopeChange };

export interface SignerInput {
  name: string;
  email: string;
  phone: string | null;
  routingOrder: number;
  authMethod: AuthMethod;
  /** Absent: the envelope's locale (the tenant's default). */
  locale?: Locale | undefined;
  /** Signs inside the integrator's app: no invitation is sent (decision 36). */
  embedded?: boolean | undefined;
}

/** At most this many carbon copies per envelope (decision 38). */
export const MAX_CC = 20;

/** Keeps a send (envelope, audit, outbox, counters) within one 100-item transaction. */
export const MAX_SIGNERS = 50;

const system = (event: AuditDraft['event'], meta: RequestMeta, detail: AuditDraft['detail'] = null): AuditDraft => ({
  event, actor: meta.actor ?? 'system', ip: meta.ip, userAgent: meta.userAgent, detail,
});

function eventItem(envelope: Envelope, event: WebhookEventName, ctx: Ctx, signerId: string | null = null): EventOutboxItem {
  return { kind: 'event', id: ctx.nextId(), envelopeId: envelope.id, event, createdAt: ctx.now.toISOString(), signerId };
}

export function newSigner(input: SignerInput, id: string, defaultLocale?: Locale): Signer {
  return {
    ...input, locale: localeOf(input.locale, defaultLocale), id, status: 'pending', signedAt: null, declinedAt: null, tokenVersion: 0, linkHash: null,
    viewedAt: null, otp: null, otpRequests: [], otpVerifiedAt: null, consentedAt: null, declineReason: null,
  };
}

function duplicateEmailErrors(signers: readonly Pick<Signer, 'email'>[], path: (i: number) => string): FieldErrors {
  const seen = new Set<string>();
  const errors: FieldErrors = {};
  signers.forEach((signer, i) => {
    const key = signer.email.toLowerCase();
    if (seen.has(key)) errors[path(i)] = ['another signer of this envelope has the same email'];
    seen.add(key);
  });
  return errors;
}

export interface NewEnvelopeInput {
  id: string;
  appId: string;
  tenantId: string;
  subject: string | null;
  createdBy: string | null;
  expiresInDays: number;
  /** The tenant's retention length (default 30 days). */
  retentionDays?: number;
  fieldOrigin: FieldOrigin;
  /** The tenant's default locale (else English). */
  locale?: Locale;
  signers: SignerInput[];
  /** Fields reference signers by their index in `signers` and documents by their index in `documents`. */
  fields: (Omit<FieldInput, 'signerId' | 'documentId'> & { signerIndex: number; documentIndex?: number })[];
  /** The originals, in order (a multipart create); empty for a JSON create. */
  documents: Document[];
  /** Their page geometry, by document id (fields on a document are checked against it). */
  pages?: DocumentPages;
  reminders?: ReminderSettings | null;
  cc?: CarbonCopy[];
}

export function createEnvelope(input: NewEnvelopeInput, ctx: Ctx): EnvelopeChange {
  if (input.signers.length > MAX_SIGNERS) throw ValidationError.at('signers', `at most ${String(MAX_SIGNERS)} signers`);
  if (input.fields.length > MAX_FIELDS) throw ValidationError.at('fields', `at most ${String(MAX_FIELDS)} fields`);
  assertNoErrors(duplicateEmailErrors(input.signers, (i) => `signers[${String(i)}].email`), 'Signer emails must be unique');
  assertDocumentLimits(input.documents);
  if ((input.cc ?? []).length > MAX_CC) throw ValidationError.at('cc', `at most ${String(MAX_CC)} carbon copies`);
  const locale = localeOf(input.locale);
  const signers = input.signers.map((s) => newSigner(s, ctx.nextId(), locale));
  const documents = input.documents;
  const fields: Field[] = input.fields.map(({ signerIndex, documentIndex, ...f }) => ({
    ...normalised({ ...f, signerId: '', documentId: null }), id: ctx.nextId(), signerId: signers[signerIndex]?.id ?? '', documentId: documents[documentIndex ?? 0]?.id ?? null,
  }));
  assertNoErrors(fieldErrors(fields, { signers, documents }, input.pages ?? new Map(), (i) => `fields[${String(i)}]`), 'Some fields are invalid');
  const createdAt = ctx.now.toISOString();
  const envelope: Envelope = {
    id: input.id, appId: input.appId, tenantId: input.tenantId, status: 'draft',
    subject: input.subject, createdBy: input.createdBy, message: null,
    expiresInDays: input.expiresInDays, expiresAt: addDays(ctx.now, input.expiresInDays), retentionDays: input.retentionDays ?? DEFAULT_TENANT.retentionDays, locale, deletionAt: null, createdAt,
    sentAt: null, completedAt: null, voidedAt: null, voidReason: null,
    documentHashOriginal: documents[0]?.sha256 ?? null, documentHashFinal: null, fieldOrigin: input.fieldOrigin,
    signers, fields, documents, version: 0, auditHead: genesis(input.id),
    reminders: input.reminders ?? null, cc: input.cc ?? [],
  };
  const drafts = [system('envelope.created', ctx.meta, {
    appId: input.appId, tenantId: input.tenantId, createdBy: input.createdBy, signers: signers.length, fields: fields.length,
    documentSha256: documents[0]?.sha256 ?? null, documents: documents.map((d) => ({ documentId: d.id, name: d.name ?? null, sha256: d.sha256 })),
  })];
  return changeOf(null, envelope, drafts, [eventItem(envelope, 'envelope.created', ctx)], ctx);
}

export function addSigner(envelope: Envelope, input: SignerInput, ctx: Ctx): { change: EnvelopeChange; signer: Signer } {
  requireDraft(envelope, 'add a signer');
  if (envelope.signers.length >= MAX_SIGNERS) throw new InvalidState(`An envelope has at most ${String(MAX_SIGNERS)} signers`);
  assertNoErrors(duplicateEmailErrors([...envelope.signers, input], () => 'email'), 'Signer emails must be unique');
  const signer = newSigner(input, ctx.nextId(), envelope.locale);
  const after = { ...envelope, signers: [...envelope.signers, signer] };
  const drafts = [system('signer.added', ctx.meta, { signerId: signer.id, email: signer.email, routingOrder: signer.routingOrder })];
  return { change: changeOf(envelope, after, drafts, [], ctx), signer };
}

/** The signers invited together first: the lowest routing order. */
export function firstRoutingGroup(signers: readonly Signer[]): Signer[] {
  const lowest = Math.min(...signers.map((s) => s.routingOrder));
  return signers.filter((s) => s.routingOrder === lowest);
}

function sendErrors(envelope: Envelope): FieldErrors {
  const errors: FieldErrors = {};
  if (!originalDocument(envelope)) errors.document = ['the envelope has no document; upload the PDF first'];
  if (envelope.signers.length === 0) errors.signers = ['the envelope needs at least one signer'];
  if (envelope.fields.length === 0) errors.fields = ['the envelope needs at least one field'];
  envelope.signers.forEach((signer, i) => {
    // A read-only field is shown to its signer, not theirs to fill (decision 17): it does not count here.
    if (envelope.fields.length > 0 && !envelope.fields.some((f) => f.signerId === signer.id && fillable(f))) {
      errors[`signers[${String(i)}]`] = [`signer ${signer.email} has no field to sign`];
    }
  });
  return errors;
}

/** Draft -> sent: the first routing group is invited (the use case mints their links). */
export function sendEnvelope(envelope: Envelope, message: string | null, ctx: Ctx): { change: EnvelopeChange; invited: Signer[] } {
  requireDraft(envelope, 'send');
  const errors = sendErrors(envelope);
  if (Object.keys(errors).length > 0) throw new InvalidState('The envelope is not ready to send', errors);
  const invitedIds = new Set(firstRoutingGroup(envelope.signers).map((s) => s.id));
  const signers = envelope.signers.map((s) => (invitedIds.has(s.id) ? { ...s, status: 'sent' as const } : s));
  const sentAt = ctx.now.toISOString();
  // A draft made from a template carries the template's message until the send gives another (decision 34).
  const sentMessage = message ?? envelope.message;
  const after: Envelope = { ...envelope, status: 'sent', message: sentMessage, sentAt, expiresAt: addDays(ctx.now, envelope.expiresInDays), signers };
  const invited = signers.filter((s) => invitedIds.has(s.id));
  const drafts = [
    system('envelope.sent', ctx.meta, { expiresAt: after.expiresAt, message: sentMessage }),
    ...invited.map((s) => system('signer.invited', ctx.meta, { signerId: s.id, email: s.email, routingOrder: s.routingOrder })),
  ];
  return { change: changeOf(envelope, after, drafts, [eventItem(after, 'envelope.sent', ctx)], ctx), invited };
}

export function voidEnvelope(envelope: Envelope, reason: string | null, ctx: Ctx): EnvelopeChange {
  if (isTerminal(envelope.status)) throw new InvalidState(`Cannot void: the envelope is already ${envelope.status}`);
  // The last signature completes the envelope (sealing is part of that step), so it is no longer voidable (decision 12).
  if (envelope.status !== 'draft' && envelope.signers.every((s) => s.status === 'signed')) {
    throw new InvalidState('Cannot void: every signer has signed; the envelope is being sealed', {}, 'envelope_sealing');
  }
  const voidedAt = ctx.now.toISOString();
  const after: Envelope = startRetention({ ...envelope, status: 'voided', voidedAt, voidReason: reason }, ctx.now);
  const drafts = [system('envelope.voided', ctx.meta, { reason, previousStatus: envelope.status })];
  const notices = noticeItems(after, 'voided', ctx, { reason });
  return changeOf(envelope, after, drafts, [eventItem(after, 'envelope.voided', ctx), retentionJob(after, ctx), ...notices], ctx);
}

/** Sent or in-progress envelopes whose deadline has passed expire (decision 11); null when nothing is due. */
export function expireIfDue(envelope: Envelope, ctx: Ctx): EnvelopeChange | null {
  const live = envelope.status === 'sent' || envelope.status === 'in_progress';
  if (!live || Date.parse(envelope.expiresAt) > ctx.now.getTime()) return null;
  // Everyone signed in time and only the seal is outstanding (it may be running, or retrying): the deadline was
  // for signing, so it no longer applies; completing is up to the seal workflow.
  if (envelope.signers.every((s) => s.status === 'signed')) return null;
  const after: Envelope = startRetention({ ...envelope, status: 'expired' }, ctx.now);
  const drafts = [{ ...system('envelope.expired', { ip: null, userAgent: null }, { expiresAt: envelope.expiresAt }) }];
  return changeOf(envelope, after, drafts, [eventItem(after, 'envelope.expired', ctx), retentionJob(after, ctx), ...noticeItems(after, 'expired', ctx)], ctx);
}

/** After the envelope ends: re-tag its blobs with their retention class (the lifecycle clock starts). */
export function retentionJob(envelope: Envelope, ctx: Ctx): JobOutboxItem {
  return { kind: 'job', id: ctx.nextId(), envelopeId: envelope.id, createdAt: ctx.now.toISOString(), job: { type: 'retention.tag', envelopeId: envelope.id } };
}

export function addDays(from: Date, days: number): string {
  return new Date(from.getTime() + days * 86_400_000).toISOString();
}

export interface MintedLink {
  claims: LinkClaims;
  tokenHash: string;
}

/**
 * Links were minted for the invited signers: record their hashes and claims, and queue the invitations (or, with
 * `template` `signing_reminder`, the reminders). Embedded signers get no message (decision 36); `reused` are current
 * links sent again as they are.
 */
export function withInvitations(
  change: EnvelopeChange, minted: readonly MintedLink[], ctx: Ctx,
  template: InvitationOutboxItem['template'] = 'invitation', reused: readonly LinkClaims[] = [],
): EnvelopeChange {
  const bySigner = new Map(minted.map((m) => [m.claims.signerId, m]));
  const now = ctx.now.toISOString();
  const signers = change.after.signers.map((s) => {
    const link = bySigner.get(s.id);
    return link ? { ...s, linkHash: link.tokenHash, tokenVersion: link.claims.version, link: link.claims, invitedAt: s.invitedAt ?? now } : s;
  });
  const invitations = [...minted.map((m) => m.claims), ...reused].flatMap((claims) => {
    const signer = signers.find((s) => s.id === claims.signerId);
    if (!signer || signer.embedded) return [];
    const sms = signer.authMethod === 'sms_otp' && signer.phone !== null;
    return [{ link: claims, channels: sms ? (['email', 'sms'] as const).slice() : ['email' as const] }];
  });
  const items: InvitationOutboxItem[] = invitations.length === 0 ? [] : [{
    kind: 'notify', id: ctx.nextId(), envelopeId: change.after.id, template, createdAt: now, invitations,
  }];
  return { ...change, after: { ...change.after, signers }, outbox: [...change.outbox, ...items] };
}

/** A signing link lives until the envelope's deadline, at most 30 days (decision 13). */
export function linkClaimsFor(envelope: Envelope, signer: Signer, ctx: Ctx): LinkClaims {
  const issuedAt = Math.floor(ctx.now.getTime() / 1000);
  const deadline = Math.floor(Date.parse(envelope.expiresAt) / 1000);
  return {
    jti: ctx.nextId(), signerId: signer.id, envelopeId: envelope.id, version: signer.tokenVersion + 1,
    issuedAt, expiresAt: Math.min(deadline, issuedAt + 30 * 86_400),
  };
}
