import { createHash, createHmac, randomInt } from 'node:crypto';
import { sameDigest, sha256Hex, verifySigningToken } from '../../auth/signing-links.ts';
import type { Config } from '../../config.ts';
import type { Ctx, EnvelopeChange } from '../envelope.ts';
import { Gone, Unauthorized, ValidationError } from '../errors.ts';
import { otpEmail, otpSms } from '../messages.ts';
import { originalDocument, type Envelope, type RequestMeta, type Signer } from '../model.ts';
import {
  assertGate, decline, giveConsent, markViewed, recordSignature, requestOtp, signerOf, verifyOtp, OTP_MAX_FAILURES, OTP_TTL_SECONDS,
  type SigningStep,
} from '../signing.ts';
import { checkSubmission, type CheckedValue, type FieldValue, type SubmittedField } from '../submission.ts';
import type { BlobStore } from '#ports/services.ts';
import { applyDueExpiry, commitWithRetry, type CoreDeps } from './context.ts';
import type { DispatchDeps } from './notifications.ts';

export interface SigningDeps extends CoreDeps, DispatchDeps {
  config: Pick<Config, 'linkSecret' | 'signingUrl'>;
  blobs: BlobStore;
}

interface Session { envelope: Envelope; signer: Signer }

/** Resolves a link to its envelope and signer: signature, expiry, current version and stored hash must all match. */
async function openLink(deps: SigningDeps, token: string): Promise<Session> {
  const link = await verifySigningToken(deps.config.linkSecret, token, deps.clock.now());
  const found = await deps.envelopes.find(link.envelopeId);
  if (!found) throw new Unauthorized('This signing link is not valid', {}, 'link_invalid');
  const envelope = await applyDueExpiry(deps, found, async () => (await openLink(deps, token)).envelope);
  const signer = signerOf(envelope, link.signerId);
  const current = signer.linkHash !== null && sameDigest(signer.linkHash, sha256Hex(token)) && signer.tokenVersion === link.version;
  if (!current) throw new Unauthorized('This signing link has been replaced by a newer one or is not valid', {}, 'link_replaced');
  return { envelope, signer };
}

type Step<R> = (session: Session, ctx: Ctx) => Promise<{ change: EnvelopeChange | null; result: R }> | { change: EnvelopeChange | null; result: R };

/** Opens the link, checks the step's gate, runs the transition and commits it (retried on a lost race). */
function withLink<R>(deps: SigningDeps, token: string, meta: RequestMeta, step: SigningStep, run: Step<R>): Promise<{ result: R; change: EnvelopeChange | null }> {
  const load = async () => {
    const session = await openLink(deps, token);
    assertGate(session.envelope, session.signer, step);
    return session;
  };
  return commitWithRetry(deps, meta, load, run);
}

export async function readSigningContext(deps: SigningDeps, token: string, meta: RequestMeta) {
  const { change, result } = await withLink(deps, token, meta, 'context', ({ envelope, signer }, ctx) =>
    ({ change: markViewed(envelope, signer, ctx), result: { envelope, signer } }));
  const envelope = change?.after ?? result.envelope;
  return { envelope, signer: signerOf(envelope, result.signer.id) };
}

const otpHash = (secret: string, signerId: string, code: string) => createHmac('sha256', secret).update(`${signerId}.${code}`).digest('hex');

export function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, 1)}${'*'.repeat(Math.max(3, local.length - 1))}@${domain}`;
}

export const maskPhone = (phone: string) => `${phone.slice(0, 2)}${'*'.repeat(Math.max(3, phone.length - 5))}${phone.slice(-3)}`;

/** A fresh 6-digit code, stored as a keyed hash, then sent by email (or SMS for sms_otp with a phone). */
export async function requestCode(deps: SigningDeps, token: string, meta: RequestMeta) {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const { result } = await withLink(deps, token, meta, 'otp', ({ envelope, signer }, ctx) => {
    const channel = signer.authMethod === 'sms_otp' && signer.phone ? 'sms' : 'email';
    return { change: requestOtp(envelope, signer, otpHash(deps.config.linkSecret, signer.id, code), channel, ctx), result: { envelope, signer, channel } };
  });
  const { envelope, signer, channel } = result;
  if (channel === 'sms' && signer.phone) await deps.sms.send({ to: signer.phone, text: otpSms(code) });
  else await deps.mailer.send({ to: signer.email, ...otpEmail(envelope, signer, code, OTP_TTL_SECONDS / 60) });
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
  if (outcome === 'no_code') throw ValidationError.at('code', 'has expired or was never requested; request a new code', 'code_expired');
  if (outcome === 'burnt') throw ValidationError.at('code', `is incorrect; after ${String(OTP_MAX_FAILURES)} wrong attempts the code is void, request a new one`, 'code_burnt');
  throw ValidationError.at('code', 'is incorrect', 'code_incorrect');
}

export async function consentToSign(deps: SigningDeps, token: string, meta: RequestMeta) {
  const { result } = await withLink(deps, token, meta, 'consent', ({ envelope, signer }, ctx) => {
    const change = giveConsent(envelope, signer, ctx);
    return { change, result: signerOf(change.after, signer.id) };
  });
  return { consented: true, consentedAt: result.consentedAt };
}

const signatureKey = (envelopeId: string, signerId: string, fieldId: string) => `signatures/${envelopeId}/${signerId}/${fieldId}.png`;

/** Stores drawn signatures (PNG) in the blob store; the other values are kept inline. */
async function storeValues(blobs: BlobStore, envelope: Envelope, signer: Signer, checked: CheckedValue[]): Promise<FieldValue[]> {
  return Promise.all(checked.map(async (value): Promise<FieldValue> => {
    if (value.kind !== 'png') return value;
    const blobKey = signatureKey(envelope.id, signer.id, value.fieldId);
    await blobs.put(blobKey, value.bytes, 'image/png');
    const sha256 = createHash('sha256').update(value.bytes).digest('hex');
    return { fieldId: value.fieldId, type: value.type, kind: 'image', blobKey, sha256, width: value.width, height: value.height };
  }));
}

export interface SignInput {
  fields: SubmittedField[];
  fontLabel: string | null;
}

export async function signDocument(deps: SigningDeps, token: string, input: SignInput, meta: RequestMeta) {
  const { result } = await withLink(deps, token, meta, 'sign', async ({ envelope, signer }, ctx) => {
    const checked = checkSubmission(envelope, signer, input.fields, input.fontLabel, ctx.now.toISOString().slice(0, 10));
    const values = await storeValues(deps.blobs, envelope, signer, checked);
    const submission = { envelopeId: envelope.id, signerId: signer.id, submittedAt: ctx.now.toISOString(), fontLabel: input.fontLabel, values };
    const { change } = recordSignature(envelope, signer, submission, ctx);
    return { change, result: { envelope: change.after, signer: signerOf(change.after, signer.id) } };
  });
  return { signed: true, signedAt: result.signer.signedAt, envelopeStatus: result.envelope.status };
}

export async function declineToSign(deps: SigningDeps, token: string, reason: string | null, meta: RequestMeta) {
  const { result } = await withLink(deps, token, meta, 'decline', ({ envelope, signer }, ctx) => {
    const declined = decline(envelope, signer, reason, ctx);
    return { change: declined, result: signerOf(declined.after, signer.id) };
  });
  return { declined: true, declinedAt: result.declinedAt, envelopeStatus: 'declined' };
}

/** The original PDF, for rendering on the signing page. */
export async function signingDocument(deps: SigningDeps, token: string, meta: RequestMeta) {
  const { result: envelope } = await withLink(deps, token, meta, 'document', ({ envelope }) => ({ change: null, result: envelope }));
  const document = originalDocument(envelope);
  const bytes = document ? await deps.blobs.get(document.blobKey) : undefined;
  if (!document || !bytes) throw new Gone('The document is no longer available');
  return { envelope, document, bytes };
}
