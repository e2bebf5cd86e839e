import { expect } from 'vitest';
import { call, outboxFor, type ApiResponse } from './api.ts';
import { PNG_1X1 } from './pdfs.ts';

export const tokenOf = (signingUrl: string | null | undefined) => {
  const token = signingUrl?.split('/sign/')[1];
  if (!token) throw new Error(`no token in ${String(signingUrl)}`);
  return token;
};

/** A call to a signer-facing endpoint: the link token is the only credential. */
export function signing<T = Record<string, unknown>>(method: string, token: string, path = '', json?: unknown): Promise<ApiResponse<T>> {
  return call<T>(method, `/v1/signing/${token}${path}`, json === undefined ? {} : { json });
}

/** Runs due jobs and waits for the background queues to go quiet (the local runtime's sync point). */
export async function settle(advanceSeconds = 0, runJobs = true): Promise<void> {
  const res = await call('POST', '/_local/clock', { json: { advanceSeconds, runJobs } });
  expect(res.status).toBe(200);
}

/** The newest one-time code sent to an email address or phone number. */
export async function latestCode(address: string): Promise<string> {
  const messages = await outboxFor(address);
  const codes = messages.map((m) => /\b(\d{6})\b/.exec(m.channel === 'sms' ? m.text : (m.subject ?? ''))?.[1]).filter((c): c is string => Boolean(c));
  const code = codes.at(-1);
  if (!code) throw new Error(`no code sent to ${address}`);
  return code;
}

/** OTP (when the signer needs it) and consent: the gates before signing. */
export async function passGates(token: string, address: string | null): Promise<void> {
  if (address) {
    expect((await signing('POST', token, '/otp/request')).status).toBe(200);
    const verify = await signing('POST', token, '/otp/verify', { code: await latestCode(address) });
    expect(verify.status, JSON.stringify(verify.body)).toBe(200);
  }
  expect((await signing('POST', token, '/consent')).status).toBe(200);
}

export const pngBase64 = Buffer.from(PNG_1X1).toString('base64');

export interface ContextBody {
  envelopeId: string;
  signerId: string;
  fields: { id: string; type: string; required: boolean; documentId: string | null; label: string | null; value: string | null; readOnly: boolean }[];
  requiresOtpVerification: boolean;
  otpVerified: boolean;
}

/** Values for every field of the signer: a drawn signature, text, a ticked box (dates are filled in by the service). */
interface FieldValue { fieldId: string; signatureImageBase64?: string; textValue?: string }

export function valuesFor(context: ContextBody): FieldValue[] {
  return context.fields.flatMap((f): FieldValue[] => {
    if (f.type === 'signature' || f.type === 'initial') return [{ fieldId: f.id, signatureImageBase64: pngBase64 }];
    if (f.type === 'text') return [{ fieldId: f.id, textValue: 'ACME Corp.' }];
    if (f.type === 'checkbox') return [{ fieldId: f.id, textValue: 'true' }];
    return [];
  });
}

/**
 * Up to `count` wrong one-time codes for a link, 3 per code and 5 codes per 10 minutes: the service clock moves past
 * each full rate window (clock tests only). Stops at the first answer that is not a wrong code, and returns it.
 */
export async function guessWrongCodes(token: string, address: string, count: number): Promise<{ wrong: number; refused: ApiResponse | null }> {
  let wrong = 0;
  for (let codes = 1; wrong < count; codes++) {
    expect((await signing('POST', token, '/otp/request')).status).toBe(200);
    const right = await latestCode(address);
    const guess = String((Number(right) + 1) % 1_000_000).padStart(6, '0');
    for (let tries = 0; tries < 3 && wrong < count; tries++) {
      const verify = await signing('POST', token, '/otp/verify', { code: guess });
      wrong++;
      if (verify.status !== 400) return { wrong, refused: verify };
    }
    if (codes % 5 === 0) await settle(601, false);
  }
  return { wrong, refused: null };
}
