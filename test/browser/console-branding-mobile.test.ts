/** Settings → Branding and Reassign on a 360 px phone, in German, by keyboard alone; nothing wider than the screen. */
import { describe, expect, it } from 'vitest';
import { call } from '../support/api.ts';
import { axe, summary, unique } from './support.ts';
import { consoleBrowser, consoleUrl, focusedLabel, overflow, sentEnvelope, shot, tenantOf, useToken } from './console-support.ts';

const session = consoleBrowser({ width: 360, height: 640, mobile: true }, 'browser console branding mobile');


describe('console branding and reassignment at 360 px in German', () => {
  it('sets the branding by keyboard and shows it in the header', async () => {
    const { page, bearer, errors } = session;
    await useToken(page, bearer);
    await page.addInitScript("sessionStorage.setItem('esign.locale', 'de');");
    await page.goto(consoleUrl('settings'));
    await page.getByRole('heading', { level: 1, name: 'Einstellungen' }).waitFor();
    await page.getByLabel('Name der Organisation').waitFor();
    await page.getByLabel('Name der Organisation').focus();
    await page.keyboard.type('Müller & Söhne GmbH');
    await page.keyboard.press('Tab');
    expect(await focusedLabel(page)).toBe('Farbe (#rrggbb)');
    await page.keyboard.type('#0b5394');
    await page.keyboard.press('Tab'); // the colour picker
    await page.keyboard.press('Tab');
    expect(await focusedLabel(page)).toBe('Absendername der E-Mails');
    await page.keyboard.type('Müller & Söhne');
    expect(await page.getByTestId('contrast').innerText()).toMatch(/^Text auf dieser Farbe: weiß \(Kontrast \d+\.\d:1\)\. Links auf Weiß: #0b5394\.$/);
    await page.keyboard.press('Enter'); // submits the form
    await page.getByText('Der Markenauftritt wurde gespeichert. Ab jetzt erstellte Umschläge übernehmen ihn.').waitFor();
    expect((await call<{ organizationName: string; primaryColor: string }>('GET', '/v1/console/branding', { token: bearer })).body)
      .toMatchObject({ organizationName: 'Müller & Söhne GmbH', primaryColor: '#0b5394' });
    await expect.poll(() => page.locator('header.console-header .site-name').innerText()).toBe('Müller & Söhne GmbH');
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await shot(page, 'branding-360-de');
    expect(summary(await axe(page))).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('reassigns a signer by keyboard', async () => {
    const { page, bearer, errors } = session;
    const envelope = await sentEnvelope(bearer, tenantOf('reassign-de'), 'Liefervertrag', unique('dana'));
    const carla = unique('carla');
    await page.goto(consoleUrl(`envelopes/${envelope.id}`));
    await page.getByRole('heading', { level: 1, name: 'Liefervertrag' }).waitFor();
    await page.getByRole('button', { name: 'Platz von Dana Signer neu vergeben' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Jemand anderes unterschreibt für Dana Signer' }).waitFor();
    // The dialog takes the focus on its first field
    expect(await focusedLabel(page)).toBe('Name der neuen Person');
    await page.keyboard.type('Carla Nunes');
    await page.keyboard.press('Tab');
    await page.keyboard.type(carla);
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await shot(page, 'reassign-360-de');
    expect(summary(await axe(page))).toEqual([]);
    await page.keyboard.press('Enter');
    await page.getByText('Carla Nunes unterschreibt jetzt anstelle von Dana Signer.').waitFor();
    const after = (await call<{ signers: { name: string; email: string }[] }>('GET', `/v1/envelopes/${envelope.id}`, { token: bearer })).body;
    expect(after.signers.map((s) => [s.name, s.email])).toEqual([['Carla Nunes', carla]]);
    expect(errors).toEqual([]);
  });
});
