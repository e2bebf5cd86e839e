/**
 * What the signing host answers on its API paths, over HTTP: JSON and PDF alike carry a policy that makes them no page
 * to run or frame, nosniff and DENY; the original PDF is an attachment, never opened as a page of the signing origin.
 */
import { inject, describe, expect, it } from 'vitest';
import { call, newApp } from '#test/support/api.ts';
import { readyDraft, type EnvelopeBody } from '#test/support/envelopes.ts';
import { passGates, tokenOf } from '#test/support/signing.ts';

const onSigningHost = (path: string) => fetch(`${inject('signingUrl')}${path}`, { redirect: 'manual' });

function expectNotAPage(response: Response): void {
  expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'; sandbox");
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  expect(response.headers.get('x-frame-options')).toBe('DENY');
}

describe('the signing host\'s API answers', () => {
  it('carry a no-page policy, nosniff and DENY on JSON, PDF and errors; the original is an attachment', async () => {
    const { token } = await newApp('signing host headers');
    const draft = await readyDraft(token);
    const sent = await call<EnvelopeBody>('POST', `/v1/envelopes/${draft.id}/send`, { token, json: {} });
    const link = tokenOf(sent.body.signers[0]?.signingUrl);
    await passGates(link, 'ana@example.com');

    const context = await onSigningHost(`/v1/signing/${link}`);
    expect(context.status, await context.clone().text()).toBe(200);
    expectNotAPage(context);

    const pdf = await onSigningHost(`/v1/signing/${link}/document`);
    expect(pdf.status, await pdf.clone().text()).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('content-disposition')).toMatch(/^attachment; filename="contract\.pdf"/);
    expectNotAPage(pdf);

    const missing = await onSigningHost('/v1/signing/not-a-token');
    expect(missing.status).toBeGreaterThanOrEqual(400);
    expectNotAPage(missing);
    expectNotAPage(await onSigningHost('/v1/download/not-a-token'));
  });
});
