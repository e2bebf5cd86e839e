/** The pages pick their screen by the error's reason code and status, whatever its message says. */
import { describe, expect, it } from 'vitest';
import { ERROR_REASONS } from '#shared/kernel/errors.ts';
import { ApiError } from '../../web/src/api-error.ts';
import { downloadProblem, openingProblem, signingRoute } from '../../web/src/problems.ts';

const error = (status: number, reason: string | null, message: string) =>
  new ApiError({ status, code: 'unauthorized', reason: reason as ApiError['reason'], message });

describe('signing errors', () => {
  it('go to the screen of their reason, even when the message names another one', () => {
    const misleading = 'This signing link has expired, was voided, replaced, and you have already signed';
    expect(openingProblem(error(401, 'link_replaced', misleading))).toBe('replaced');
    expect(openingProblem(error(401, 'envelope_voided', misleading))).toBe('voided');
    expect(openingProblem(error(401, 'link_expired', 'voided'))).toBe('expired');
    expect(openingProblem(error(401, 'envelope_expired', 'replaced'))).toBe('expired');
    expect(openingProblem(error(401, 'link_not_yet_valid', 'expired'))).toBe('not_yet');
    expect(openingProblem(error(401, 'envelope_declined', 'already signed'))).toBe('closed');
    expect(openingProblem(error(401, 'envelope_completed', 'expired'))).toBe('closed');
    expect(openingProblem(error(410, 'already_declined', 'you already signed'))).toBe('declined');
    expect(openingProblem(error(409, 'already_signed', 'you declined'))).toBe('signed');
    expect(openingProblem(error(401, 'link_invalid', 'expired'))).toBe('invalid');
  });

  it('without a known reason, go by the status alone', () => {
    expect(openingProblem(error(401, null, 'This signing link has expired'))).toBe('invalid');
    expect(openingProblem(error(401, 'some_new_reason', 'expired'))).toBe('invalid');
    expect(openingProblem(error(410, null, 'you declined'))).toBe('signed');
    expect(openingProblem(error(0, null, 'expired'))).toBe('network');
    expect(openingProblem(error(500, null, 'expired'))).toBe('unavailable');
    expect(openingProblem(error(409, null, 'You have already signed this document'))).toBe('unavailable');
  });

  it('send the signer back through the gates when a step is missing, and keep code errors on the form', () => {
    for (const reason of ['otp_required', 'consent_required', 'consent_given']) expect(signingRoute(error(401, reason, 'voided'))).toEqual({ to: 'gates' });
    for (const reason of ['code_incorrect', 'code_expired', 'code_burnt']) expect(signingRoute(error(400, reason, 'voided'))).toEqual({ to: 'inline' });
    expect(signingRoute(error(0, null, 'voided'))).toEqual({ to: 'inline' }); // no answer: the entries stay, Finish again
    expect(signingRoute(error(429, null, 'voided'))).toEqual({ to: 'inline' });
  });

  it('has a decision for every reason the service sends', () => {
    for (const reason of ERROR_REASONS) expect(signingRoute(error(418, reason, '')).to, reason).toMatch(/^(screen|gates|inline)$/);
  });
});

describe('download errors', () => {
  it('go to the screen of their reason, or by status without one', () => {
    expect(downloadProblem(error(410, 'document_purged', 'This download link has expired'))).toBe('purged');
    expect(downloadProblem(error(401, 'link_expired', 'The document was deleted'))).toBe('expired');
    expect(downloadProblem(error(401, 'link_invalid', 'This download link has expired'))).toBe('invalid');
    expect(downloadProblem(error(401, null, 'This download link has expired'))).toBe('invalid');
    expect(downloadProblem(error(410, null, 'expired'))).toBe('purged');
    expect(downloadProblem(error(0, null, ''))).toBe('network');
    expect(downloadProblem(error(503, null, ''))).toBe('unavailable');
  });
});
