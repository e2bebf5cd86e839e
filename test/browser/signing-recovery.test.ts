/**
 * The signing page in a desktop-sized Chromium when things go wrong or come back: a reload keeps the entries, a
 * repeated Finish is answered once, finished links explain themselves, wrong codes, and the screens picked by the
 * error's reason code (signing.test.ts: the journey itself).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { call } from '#test/support/api.ts';
import { sigField } from '#test/support/envelopes.ts';
import type { EnvelopeBody } from '#test/support/envelopes.ts';
import { latestCode, passGates } from '#test/support/signing.ts';
import { axe, contractPdf, drawWithMouse, screenshot, sendEnvelope, signingUrl, summary, unique, useBrowser } from './support.ts';

let bearer: string;
let page: Page;
let errors: string[];

useBrowser({ width: 1024, height: 800 }, 'browser signing recovery', (session) => { ({ page, bearer, errors } = session); });

const SIGNATURE = { signerIndex: 0, type: 'signature', page: 1, x: 72, y: 120, w: 200, h: 50 };
const TEXT = { signerIndex: 0, type: 'text', page: 1, x: 72, y: 500, w: 260, h: 22 };

/** Answers every signing API call with an error body as the API writes it (the message is for people only). */
async function answerWith(status: number, reason: string, message: string): Promise<void> {
  await page.route('**/v1/signing/**', (route) => route.fulfill({
    status, contentType: 'application/json',
    body: JSON.stringify({ error: status === 410 ? 'gone' : 'unauthorized', reason, type: 'unauthorized', title: 'Unauthorized', status, message, errors: {}, details: null, requestId: 'test' }),
  }));
}

/** One signer without a code who has consented already: their link opens on the document. */
async function atTheDocument(subject: string, name: string, fields: object[]) {
  const { envelope, links, tokens } = await sendEnvelope(bearer, {
    tenantId: 'browser', subject, signers: [{ name, email: unique('doc'), authMethod: 'none' }], fields,
  }, await contractPdf({ pages: 1 }));
  const token = tokens[0] ?? '';
  await passGates(token, null);
  return { envelope, link: links[0] ?? '', token, ids: envelope.fields.map((f) => f.id) };
}

describe('the signing page: reloads, repeats and refusals', { timeout: 120_000 }, () => {
  it('keeps what the signer entered across a reload of the tab, without the link token, until they sign', async () => {
    const { link, token, ids: [sig, text, box] } = await atTheDocument('Rental form', 'Ida Holm', [
      SIGNATURE, TEXT, { signerIndex: 0, type: 'checkbox', page: 1, x: 72, y: 460, w: 14, h: 14 },
    ]);
    await page.goto(link);
    await page.locator(`[data-field-id="${text ?? ''}"]`).click();
    const textDialog = page.getByRole('dialog', { name: 'Fill in the text field' });
    await textDialog.getByLabel('Text for the field on page 1').fill('Unit 4B');
    await textDialog.getByRole('button', { name: 'Done' }).click();
    await page.locator(`input[data-field-id="${box ?? ''}"]`).focus();
    await page.keyboard.press('Space');
    await page.locator(`[data-field-id="${sig ?? ''}"]`).click();
    const dialog = page.getByRole('dialog', { name: 'Add your signature' });
    await drawWithMouse(page, dialog.locator('canvas.pad'));
    await dialog.getByRole('button', { name: 'Sign', exact: true }).click();
    const allDone = 'All required fields are done. Select Finish to sign.';
    await expect.poll(() => page.locator('#progress').textContent()).toBe(allDone);

    await page.reload();
    await page.locator('.sheet.is-rendered').waitFor();
    expect(await page.locator('#progress').textContent()).toBe(allDone);
    expect(await page.locator(`[data-field-id="${text ?? ''}"]`).textContent()).toContain('Unit 4B');
    expect(await page.locator(`input[data-field-id="${box ?? ''}"]`).isChecked()).toBe(true);
    await page.locator(`[data-field-id="${sig ?? ''}"] img.mark-image`).waitFor();
    expect(await page.evaluate<string>('JSON.stringify(Object.entries(sessionStorage))')).not.toContain(token);
    // The drawing itself came back, not only its picture: the editor opens on the strokes, so Sign takes them as they are
    await page.locator(`[data-field-id="${sig ?? ''}"]`).click();
    await dialog.getByRole('button', { name: 'Sign', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });

    const sent: unknown[] = [];
    page.on('request', (request) => { if (request.url().endsWith('/sign')) sent.push(request.postDataJSON()); });
    await page.getByRole('button', { name: 'Finish' }).click();
    await page.locator('[data-done="signed"]').waitFor();
    expect(sent[0]).toMatchObject({
      fields: expect.arrayContaining([
        { fieldId: sig, signatureImageBase64: expect.stringMatching(/^iVBORw0KGgo/) as unknown, signatureSource: 'drawn' },
        { fieldId: text, textValue: 'Unit 4B' },
        { fieldId: box, textValue: 'true' },
      ]) as unknown,
    });
    expect(await page.evaluate<number>('sessionStorage.length')).toBe(0);
    expect(errors).toEqual([]);
  });

  it('drops the entries kept for a link once the link is finished for good (here: voided)', async () => {
    const { envelope, link, ids: [, text] } = await atTheDocument('Withdrawn form', 'Ola Nordmann', [SIGNATURE, TEXT]);
    const key = `esign.draft.${envelope.id}.${envelope.signers[0]?.id ?? ''}`;
    await page.goto(link);
    await page.locator(`[data-field-id="${text ?? ''}"]`).click();
    const textDialog = page.getByRole('dialog', { name: 'Fill in the text field' });
    await textDialog.getByLabel('Text for the field on page 1').fill('Kept for a moment');
    await textDialog.getByRole('button', { name: 'Done' }).click();
    expect(await page.evaluate<string | null>(`sessionStorage.getItem(${JSON.stringify(key)})`)).toContain('Kept for a moment');
    expect((await call('POST', `/v1/envelopes/${envelope.id}/void`, { token: bearer, json: { reason: 'Superseded' } })).status).toBe(200);
    await page.reload();
    await page.locator('[data-problem="voided"]').waitFor();
    expect(await page.evaluate<string | null>(`sessionStorage.getItem(${JSON.stringify(key)})`)).toBeNull();
  });

  it('a Finish repeated after a lost answer is answered from the first request: done, signed once', async () => {
    const { envelope, link, ids: [sig] } = await atTheDocument('Service order', 'Dee Moss', [SIGNATURE]);
    await page.goto(link);
    await page.locator(`[data-field-id="${sig ?? ''}"]`).click();
    const dialog = page.getByRole('dialog', { name: 'Add your signature' });
    await dialog.getByText('Type', { exact: true }).click();
    await dialog.getByRole('button', { name: 'Sign', exact: true }).click();

    // The first answer never reaches the page: the service signed, the connection dropped on the way back
    const keys: (string | undefined)[] = [];
    const replayed: (string | null)[] = [];
    await page.route('**/sign', async (route) => {
      keys.push(route.request().headers()['idempotency-key']);
      if (keys.length > 1) {
        const response = await route.fetch();
        replayed.push(response.headers()['idempotent-replayed'] ?? null);
        await route.fulfill({ response });
        return;
      }
      expect((await route.fetch()).status()).toBe(200);
      await route.abort('connectionreset');
    });
    await page.getByRole('button', { name: 'Finish' }).click();
    await page.getByRole('alert').filter({ hasText: 'Your entries are kept: select Finish to try again.' }).waitFor();
    await page.getByRole('button', { name: 'Finish' }).click();
    await page.locator('[data-done="signed"]').waitFor();
    await page.unrouteAll();

    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(replayed).toEqual(['true']);
    const after = await call<EnvelopeBody>('GET', `/v1/envelopes/${envelope.id}`, { token: bearer });
    expect(after.body.auditLog?.filter((e) => e.event === 'signer.signed')).toHaveLength(1);
    expect(errors.splice(0)).toEqual(['Failed to load resource: net::ERR_CONNECTION_RESET']); // the dropped answer, and nothing else
  });

  it('explains voided, expired, invalid and unknown links', async () => {
    const email = unique('void');
    const { envelope, links, tokens } = await sendEnvelope(bearer, {
      tenantId: 'browser', subject: 'Lease', signers: [{ name: 'Cy Dunn', email, authMethod: 'none' }], fields: [sigField(0)],
    }, await contractPdf({ pages: 1 }));
    expect((await call('POST', `/v1/envelopes/${envelope.id}/void`, { token: bearer, json: { reason: 'Wrong tenant' } })).status).toBe(200);
    await page.goto(links[0] ?? '');
    await page.locator('[data-problem="voided"]').waitFor();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('This signing request was withdrawn');
    await screenshot(page, '13-voided');
    expect(summary(await axe(page))).toEqual([]);

    // Expiry needs the service clock moved, which only the clock project may do: the API's answer is replayed here.
    await answerWith(401, 'envelope_expired', 'This signing link has expired: the signing deadline passed');
    await page.goto(`${signingUrl()}/sign/${tokens[0] ?? ''}`);
    await page.locator('[data-problem="expired"]').waitFor();
    await screenshot(page, '14-expired');
    await page.unrouteAll();

    await page.goto(`${signingUrl()}/sign/not-a-token`);
    await page.locator('[data-problem="invalid"]').waitFor();
    await screenshot(page, '15-invalid');
    expect(summary(await axe(page))).toEqual([]);

    await page.goto(`${signingUrl()}/somewhere/else`);
    await page.getByRole('heading', { level: 1, name: 'This page needs the link from your email' }).waitFor();
    expect(errors).toEqual([]);
  });

  it('after the third wrong code says only that the code no longer works, and a new code goes on from there', async () => {
    const email = unique('burnt');
    const { links } = await sendEnvelope(bearer, { tenantId: 'browser', subject: 'Loan', signers: [{ name: 'Bea Burns', email }], fields: [sigField(0)] }, await contractPdf({ pages: 1 }));
    await page.goto(links[0] ?? '');
    await page.getByRole('button', { name: 'Email me a code' }).click();
    const code = page.getByLabel('6-digit code');
    await code.waitFor();
    await page.getByText('It works for 10 minutes').waitFor();
    const right = await latestCode(email);
    const wrong = right === '000000' ? '111111' : '000000';
    for (let attempt = 1; attempt <= 2; attempt++) {
      await code.fill(wrong);
      await page.getByRole('button', { name: 'Verify code' }).click();
      await page.getByRole('alert').filter({ hasText: 'The code is incorrect' }).waitFor();
      await expect.poll(() => page.getByRole('button', { name: 'Verify code' }).isEnabled()).toBe(true);
    }
    await code.fill(wrong);
    await page.getByRole('button', { name: 'Verify code' }).click();
    await page.getByRole('alert').filter({ hasText: 'That code no longer works' }).waitFor();
    // One state: not "sent, works for 10 minutes" beside "no longer works", and no field for the dead code
    expect(await page.getByText('It works for 10 minutes').count()).toBe(0);
    expect(await page.getByText('The code is incorrect').count()).toBe(0);
    expect(await code.isVisible()).toBe(false);
    const renew = page.getByRole('button', { name: 'Send a new code' });
    expect(await renew.count()).toBe(1);
    await expect.poll(() => page.evaluate<string>('document.activeElement?.textContent ?? ""')).toBe('Send a new code');
    await screenshot(page, '02b-otp-code-void');
    expect(summary(await axe(page))).toEqual([]);

    await renew.click();
    await page.getByText('It works for 10 minutes').waitFor();
    expect(await page.getByText('That code no longer works').count()).toBe(0);
    await code.fill(await latestCode(email));
    await page.getByRole('button', { name: 'Verify code' }).click();
    await page.getByRole('heading', { level: 1, name: 'Agree to sign electronically' }).waitFor();
    expect(errors).toEqual([]);
  });

  it('keeps the "fields need your input" message true: it counts down as fields are filled and goes once none is left', async () => {
    const { link, ids: [sig, text] } = await atTheDocument('Early finish', 'Fay Early', [SIGNATURE, TEXT]);
    await page.goto(link);
    await page.locator('.sheet.is-rendered').waitFor();
    await page.getByRole('button', { name: 'Finish' }).click();
    const alert = page.getByRole('alert').filter({ hasText: /required fields? needs? your input/ });
    await alert.filter({ hasText: '2 required fields need your input.' }).waitFor();
    expect(await page.locator('.field.is-invalid').count()).toBe(2);

    await page.locator(`[data-field-id="${text ?? ''}"]`).click();
    const textDialog = page.getByRole('dialog', { name: 'Fill in the text field' });
    await textDialog.getByLabel('Text for the field on page 1').fill('Early');
    await textDialog.getByRole('button', { name: 'Done' }).click();
    await alert.filter({ hasText: '1 required field needs your input.' }).waitFor();
    expect(await alert.count()).toBe(1);
    expect(await page.locator('.field.is-invalid').count()).toBe(1);

    await page.locator(`[data-field-id="${sig ?? ''}"]`).click();
    const dialog = page.getByRole('dialog', { name: 'Add your signature' });
    await dialog.getByText('Type', { exact: true }).click();
    await dialog.getByRole('button', { name: 'Sign', exact: true }).click();
    await expect.poll(() => page.locator('#progress').textContent()).toBe('All required fields are done. Select Finish to sign.');
    expect(await alert.count()).toBe(0);
    expect(await page.locator('.action-bar [role="alert"]').count()).toBe(0);
    expect(await page.locator('.field.is-invalid').count()).toBe(0);
    await screenshot(page, '16b-missing-then-done');
  });

  it('picks the screen by the error’s reason code, whatever its message says', async () => {
    const link = `${signingUrl()}/sign/${(await atTheDocument('Reasons', 'Rae Son', [SIGNATURE])).token}`;
    const misleading = 'This signing link has expired; the envelope was voided and replaced; you have already signed';
    const cases: [number, string, string][] = [
      [401, 'link_replaced', 'replaced'], [401, 'envelope_voided', 'voided'], [401, 'link_expired', 'expired'],
      [401, 'link_not_yet_valid', 'not_yet'], [401, 'envelope_declined', 'closed'], [410, 'already_declined', 'declined'],
      [410, 'already_signed', 'signed'], [401, 'link_invalid', 'invalid'],
    ];
    for (const [status, reason, screen] of cases) {
      await answerWith(status, reason, misleading);
      await page.goto(link);
      await page.locator(`[data-problem="${screen}"]`).waitFor();
      await page.unrouteAll();
    }
    // The message is shown as a detail, never read
    expect(await page.locator('.detail').textContent()).toContain(misleading);
    await screenshot(page, '14b-reason-not-message');
    expect(summary(await axe(page))).toEqual([]);
  });
});
