import { describe, expect, it } from 'vitest';
import { AA_CONTRAST, accentOnWhite, brandColors, contrastRatio, resolveBranding, textColorOn } from '#shared/console/branding.ts';

describe('contrast', () => {
  it('computes WCAG contrast ratios', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
    expect(contrastRatio('#ffffff', '#ffffff')).toBe(1);
  });

  it('picks the text colour on the primary colour that meets 4.5:1', () => {
    expect(textColorOn('#1d4ed8')).toBe('#ffffff');
    expect(textColorOn('#ffd400')).toBe('#000000');
    for (const primary of ['#000000', '#ffffff', '#777777', '#808080', '#ff0000', '#00ff00', '#0000ff', '#e30613', '#00a3e0', '#7f7f7f', '#959595']) {
      expect(contrastRatio(primary, textColorOn(primary)), primary).toBeGreaterThanOrEqual(AA_CONTRAST);
    }
  });

  it('keeps a primary colour that reads on white, and darkens one that does not', () => {
    expect(accentOnWhite('#1D4ED8')).toBe('#1d4ed8');
    const yellow = accentOnWhite('#ffd400');
    expect(yellow).not.toBe('#ffd400');
    expect(contrastRatio(yellow, '#ffffff')).toBeGreaterThanOrEqual(AA_CONTRAST);
    // Also on the pages' light grey, where links and secondary buttons stand
    expect(contrastRatio(yellow, '#f3f4f6')).toBeGreaterThanOrEqual(AA_CONTRAST);
    expect(contrastRatio(accentOnWhite('#767676'), '#f3f4f6')).toBeGreaterThanOrEqual(AA_CONTRAST);
    expect(contrastRatio(accentOnWhite('#ffffff'), '#ffffff')).toBeGreaterThanOrEqual(AA_CONTRAST);
    expect(brandColors('#FFD400')).toEqual({ primaryColor: '#ffd400', textColor: '#000000', accentColor: yellow });
  });
});

describe('tenant override', () => {
  const app = { organizationName: 'Acme Corp', primaryColor: '#112233', emailFromName: 'Acme', replyTo: 'help@acme.example', supportEmail: null, logo: null, updatedAt: 'x' };

  it('the tenant\'s fields win, the others stay the application\'s', () => {
    expect(resolveBranding(app, { organizationName: 'Acme Europe', primaryColor: '#aa0000', updatedAt: 'y' })).toEqual({
      organizationName: 'Acme Europe', primaryColor: '#aa0000', emailFromName: 'Acme', replyTo: 'help@acme.example', supportEmail: null, logo: null,
    });
    expect(resolveBranding(app, null)?.organizationName).toBe('Acme Corp');
    expect(resolveBranding(null, null)).toBeNull();
  });
});
