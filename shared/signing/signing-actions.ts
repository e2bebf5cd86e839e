import { createHash, createHmac, randomInt } from 'node:crypto';
import { downloadUrl, mintDownloadToken, sameDigest, sha256Hex, verifySigningToken } from '../kernel/tokens.ts';
import type { Config } from '../config.ts';
import type { Ctx } from '../envelopes/envelope.ts';
import { Gone, SignedAndComplete, Unauthorized, ValidationError } from '../kernel/errors.ts';
import { originals, type Envelope, type Field, type RequestMeta, type Signer } from '../kernel/model.ts';
import { assertGate, decline, giveConsent, markViewed, recordSignature, requestOtp, signerOf, verifyOtp, OTP_LOCKED_MESSAGE, OTP_MAX_FAILURES, OTP_TTL_SECONDS, type SigningStep } from './signing.ts';
import { otpLocked } from './otp-budget.ts';
import { signatureKey } from '../envelopes/blob-staging.ts';
import type { CheckedValue, FieldValue, Submission, SubmittedField } from './submission.ts';
import { withStagedBlobs, type BlobToStage } from '../envelopes/blob-actions.ts';
import { transact, type CoreDeps, type Decision, type Transacted, type Carriers } from './signing-context.ts';
import { deliverDocument, documentFor, type DeliveryDeps, type Disposition } from '../envelopes/document-actions.ts';
import { readPages } from '../envelopes/page-actions.ts';
import { conditionText, hasConditions } from './shown-fields.ts';
import { deleteJob, keepNamedAttachments } from '../attachments/attachments.ts';

export interface SigningDeps extends CoreDeps {
  config: Pick<Config, 'linkSecret' | 'signingUrl'>;
}

interface Session { envelope: Envelope; signer: Signer }

type Step<R> = (session: Session, ctx: Ctx) => Decision<R> | Promise<Decision<R>>;

/**
 * Runs one signing step: the link is verified once (signature, expiry), then, inside the transaction, it must still be
 * the signer's current link (hash and version) and the step's gate must be open; the step decides on the current state.
 */
export async function withLink<R>(
  deps: SigningDeps, token: string, meta: RequestMeta, step: SigningStep, run: Step<R>, known?: Envelope, read = (id: string) => deps.envelopes.find(id),
): Promise<Transacted<R>> {
  const link = await verifySigningToken(deps.config.linkSecret, token, deps.clock.now());
  // `known`: the envelope this request read a moment ago, decided on first; the commit's version check catches a
  // change since, and the retry reads afresh.
  let seed = known?.id === link.envelopeId ? known : undefined;
  const load = async () => {
    const found = seed ?? await read(link.envelopeId);
    seed = undefined;
    if (!found) throw new Unauthorized('This signing link is not valid', {}, 'link_invalid');
    return found;
  };
  try {
    return await transact(deps, meta, load, (envelope, ctx) => run(openSession(envelope, link, token, step), ctx));
  } catch (error) {
    throw error instanceof Gone && error.reason === 'already_signed' ? await withDownloadLink(deps, link, error) : error;
  }
}

/** A signer who signed opens their link again after completion: the 410 names their download-portal link (decision 14). */
async function withDownloadLink(deps: SigningDeps, link: { envelopeId: string; signerId: string }, error: Gone): Promise<Gone> {
  const envelope = await deps.envelopes.find(link.envelopeId);
  const download = envelope?.status === 'completed' ? envelope.downloadLinks?.find((l) => l.signerId === link.signerId) : undefined;
  if (!envelope || !download || Date.parse(envelope.deletionAt ?? '') <= deps.clock.now().getTime()) return error;
  const token = await mintDownloadToken(deps.config.linkSecret, { envelopeId: envelope.id, linkId: download.id, issuedAt: download.issuedAt, expiresAt: download.expiresAt });
  return new SignedAndComplete(`${error.message}. Everyone has signed: the signed copy can be downloaded`, downloadUrl(deps.config.signingUrl, token));
}

/** The link's signer, if the link is still theirs and the step's gate is open for them. */
function openSession(envelope: Envelope, link: { signerId: string; version: number }, token: string, step: SigningStep): Session {
  const signer = signerOf(envelope, link.signerId);
  const current = signer.linkHash !== null && sameDigest(signer.linkHash, sha256Hex(token)) && signer.tokenVersion === link.version;
  if (!current) throw new Unauthorized('This signing link has been replaced by a newer one or is not valid', {}, 'link_replaced');
  assertGate(envelope, signer, step);
  return { envelope, signer };
}

/** A value another signer entered, for later signers to see in place (decision 17); drawn signatures with their PNG. */
export interface CompletedValue {
  field: Field;
  signer: Signer;
  value: FieldValue;
  png: Uint8Array | null;
}

async function completedValues(deps: SigningDeps & Pick<Carriers, 'blobs'>, envelope: Envelope, reader: Signer, stored: readonly Submission[]): Promise<CompletedValue[]> {
  if (!envelope.signers.some((s) => s.id !== reader.id && s.status === 'signed')) return [];
  const submissions = stored.filter((s) => s.signerId !== reader.id);
  const entries = submissions.flatMap((submission) => submission.values.flatMap((value) => {
    const field = envelope.fields.find((f) => f.id === value.fieldId);
    const signer = envelope.signers.find((s) => s.id === submission.signerId);
    return field && signer ? [{ field, signer, value }] : [];
  }));
  return Promise.all(entries.map(async (entry) => ({ ...entry, png: entry.value.kind === 'image' ? (await deps.blobs.get(entry.value.blobKey)) ?? null : null })));
}

export async function readSigningContext(deps: SigningDeps & Pick<Carriers, 'blobs'>, token: string, meta: RequestMeta) {
  // The envelope and the submissions in one read; marking the signer viewed changes no submission.
  let submissions: Submission[] = [];
  const read = async (id: string) => {
    const whole = await deps.envelopes.findWhole(id, false);
    submissions = whole?.submissions ?? [];
    return whole?.envelope;
  };
  const { envelope, result: signerId } = await withLink(deps, token, meta, 'context', ({ envelope: e, signer }, ctx) =>
    ({ change: markViewed(e, signer, ctx), result: signer.id }), undefined, read);
  const signer = signerOf(envelope, signerId);
  const [completed, pages] = await Promise.all([completedValues(deps, envelope, signer, submissions), readPages(deps, originals(envelope))]);
  return { envelope, signer, completed, pages };
}

const otpHash = (secret: string, signerId: string, code: string) => createHmac('sha256', secret).update(`${signerId}.${code}`).digest('hex');

export function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, 1)}${'*'.repeat(Math.max(3, local.length - 1))}@${domain}`;
}

export const maskPhone = (phone: string) => `${phone.slice(0, 2)}${'*'.repeat(Math.max(3, phone.length - 5))}${phone.slice(-3)}`;

/** The lock was committed (audit entry, the sender's notice): the request that spent the budget is refused like the next. */
const lockedError = () => new Unauthorized(OTP_LOCKED_MESSAGE, {}, 'otp_locked');

/**
 * A fresh 6-digit code, stored as a keyed hash, then sent by email (or SMS for sms_otp with a phone); a request past
 * the link's lifetime budget locks the link instead.
 */
export async function requestCode(deps: SigningDeps & Pick<Carriers, 'mailer' | 'sms'>, token: string, meta: RequestMeta) {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const { result } = await withLink(deps, token, meta, 'otp', ({ envelope, signer }, ctx) => {
    const channel = signer.authMethod === 'sms_otp' && signer.phone ? 'sms' as const : 'email' as const;
    const change = requestOtp(envelope, signer, otpHash(deps.config.linkSecret, signer.id, code), channel, ctx);
    return { change, result: { envelope, signer, channel, locked: otpLocked(signerOf(change.after, signer.id)) } };
  });
  const { envelope, signer, channel, locked } = result;
  if (locked) throw lockedError();
  // The mail templates load where a code is sent, not in every signing route that shares this module.
  const [{ otpEmail, otpSms, recipientLocale }, { brandEmail }] = await Promise.all([import('../notices/email-messages.ts'), import('../notices/email-branding.ts')]);
  if (channel === 'sms' && signer.phone) await deps.sms.send({ to: signer.phone, text: otpSms(code, recipientLocale(envelope, signer), OTP_TTL_SECONDS / 60) });
  else await deps.mailer.send({ to: signer.email, ...brandEmail(envelope, recipientLocale(envelope, signer), otpEmail(envelope, signer, code, OTP_TTL_SECONDS / 60), deps.config.signingUrl) });
  return {
    maskedEmail: maskEmail(signer.email), channel, maskedPhone: channel === 'sms' && signer.phone ? maskPhone(signer.phone) : null,
    expiresInSeconds: OTP_TTL_SECONDS,
  };
}

export async function verifyCode(deps: SigningDeps, token: string, code: string, meta: RequestMeta) {
  const { result: outcome } = await withLink(deps, token, meta, 'otp', ({ envelope, signer }, ctx) => {
    const matches = (stored: string) => sameDigest(stored, otpHash(deps.config.linkSecret, signer.id, code));
    const verdict = verifyOtp(envelope, signer, matches, ctx);
    return { change: verdict.change, result: verdict.outcome };
  });
  if (outcome === 'verified' || outcome === 'already_verified') return { verified: true };
  if (outcome === 'locked') throw lockedError();
  if (outcome === 'no_code') throw ValidationError.at('code', 'has expired or was never requested; request a new code', 'code_expired');
  if (outcome === 'burnt') throw ValidationError.at('code', `is incorrect; after ${String(OTP_MAX_FAILURES)} wrong attempts the code is void, request a new one`, 'code_burnt');
  throw ValidationError.at('code', 'is incorrect', 'code_incorrect');
}

/** The time a committed step recorded (a step's transition always sets it). */
function stamped(at: string | null, step: string): string {
  if (!at) throw new Error(`The ${step} was committed without its time`);
  return at;
}

export async function consentToSign(deps: SigningDeps, token: string, meta: RequestMeta) {
  const { result } = await withLink(deps, token, meta, 'consent', ({ envelope, signer }, ctx) => {
    const change = giveConsent(envelope, signer, ctx);
    return { change, result: signerOf(change.after, signer.id) };
  });
  return { consented: true as const, consentedAt: stamped(result.consentedAt, 'consent') };
}

export interface SignInput {
  fields: SubmittedField[];
  fontLabel: string | null;
}

/** What other signers submitted, as conditions read it (by field id); read only when some field has a condition. */
export async function earlierValues(deps: SigningDeps, envelope: Envelope, reader: Signer): Promise<Map<string, string>> {
  if (!hasConditions(envelope) || !envelope.signers.some((s) => s.id !== reader.id && s.status === 'signed')) return new Map();
  const submissions = (await deps.envelopes.submissions(envelope.id)).filter((s) => s.signerId !== reader.id);
  return new Map(submissions.flatMap((s) => s.values.map((v) => [v.fieldId, conditionText(v)] as const)));
}

/** Drawn signatures (checked, re-encoded PNGs) as blobs to stage; the other values stay inline. */
function valuesOf(envelope: Envelope, stageId: string, checked: readonly CheckedValue[]): { values: FieldValue[]; blobs: BlobToStage[] } {
  const blobs: BlobToStage[] = [];
  const values = checked.map((value): FieldValue => {
    if (value.kind !== 'png') return value;
    const blobKey = signatureKey(envelope.id, stageId, value.fieldId);
    blobs.push({ key: blobKey, bytes: value.bytes, contentType: 'image/png' });
    const sha256 = createHash('sha256').update(value.bytes).digest('hex');
    return { fieldId: value.fieldId, type: value.type, kind: 'image', blobKey, sha256, width: value.width, height: value.height, ...(value.source ? { source: value.source } : {}) };
  });
  return { values, blobs };
}

/**
 * Checks the values once against the signer's fields (fixed since the envelope was sent), stages the drawn
 * signatures, then records the signature in one transaction that names them. A request that is refused or loses the
 * race (a concurrent sign, void or decline) discards its own images: it can never replace the winner's.
 */
export async function signDocument(deps: SigningDeps & Pick<Carriers, 'blobs'>, token: string, input: SignInput, meta: RequestMeta) {
  const opened = await withLink(deps, token, meta, 'sign', ({ envelope, signer }) => ({ change: null, result: { envelope, signer } }));
  const { envelope, signer } = opened.result;
  const today = deps.clock.now().toISOString().slice(0, 10);
  // The checks decode PNGs and run RE2 patterns: loaded by the sign request, not by every signing route's cold start.
  const { checkSubmission } = await import('./submission.ts');
  const checked = checkSubmission(envelope, signer, input.fields, input.fontLabel, today, await earlierValues(deps, envelope, signer));
  let values: FieldValue[] = [];
  const signed = await withStagedBlobs(deps, envelope.id, (stageId) => {
    const prepared = valuesOf(envelope, stageId, checked);
    values = prepared.values;
    return prepared.blobs;
  }, (stage) => withLink(deps, token, meta, 'sign', ({ envelope: latest, signer: latestSigner }, ctx) => {
    const submission = { envelopeId: latest.id, signerId: latestSigner.id, submittedAt: ctx.now.toISOString(), fontLabel: input.fontLabel, values };
    const kept = keepNamedAttachments(latest, latestSigner, values.flatMap((v) => (v.kind === 'attachment' ? [v] : [])));
    const { change } = recordSignature(kept.envelope, latestSigner, submission, ctx);
    return { change: { ...change, outbox: [...change.outbox, ...deleteJob(latest, kept.dropped, ctx)], releases: [stage.id] }, result: null };
  }, opened.envelope));
  const after = signerOf(signed.envelope, signer.id);
  // The envelope completes only once sealing has run: the signer who signed last is told now that nobody is left.
  const allSigned = signed.envelope.signers.every((s) => s.status === 'signed');
  return { signed: true as const, signedAt: stamped(after.signedAt, 'signature'), envelopeStatus: signed.envelope.status, allSigned };
}

export async function declineToSign(deps: SigningDeps, token: string, reason: string | null, meta: RequestMeta) {
  const { result } = await withLink(deps, token, meta, 'decline', ({ envelope, signer }, ctx) => {
    const declined = decline(envelope, signer, reason, ctx);
    return { change: declined, result: signerOf(declined.after, signer.id) };
  });
  return { declined: true as const, declinedAt: stamped(result.declinedAt, 'decline'), envelopeStatus: 'declined' as const };
}

/** An original PDF (the first, or the one `documentId` names), for rendering on the signing page. */
export async function signingDocument(deps: SigningDeps & DeliveryDeps, token: string, documentId: string | null, meta: RequestMeta, disposition: Disposition) {
  const { envelope } = await withLink(deps, token, meta, 'document', () => ({ change: null, result: null }));
  const document = documentFor(envelope, 'original', documentId);
  return { envelope, document, delivery: await deliverDocument(deps, envelope, document, disposition) };
}
