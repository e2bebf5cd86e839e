/**
 * The envelope's branding on the page: the header shows the organisation's logo and name on its colour, with the
 * text colour the API picked for contrast; links and buttons take the colour darkened until it reads on white.
 */
import type { PageBranding } from './api-types.ts';
import { h } from './dom.ts';

/** The brand colours as the page's CSS variables (the console's header draws its own logo and name). */
export function applyBrandColours(branding: Pick<PageBranding, 'primaryColor' | 'textColor' | 'accentColor'>): void {
  const root = document.documentElement.style;
  root.setProperty('--brand-bg', branding.primaryColor);
  root.setProperty('--brand-text', branding.textColor);
  // White text on buttons and links on white both need the darker shade
  root.setProperty('--primary', branding.accentColor);
  root.setProperty('--primary-dark', branding.accentColor);
  root.setProperty('--focus', branding.accentColor);
}

export function applyBranding(branding: PageBranding | null): void {
  if (!branding) return;
  applyBrandColours(branding);
  const header = document.querySelector('.site-header');
  if (!header) return;
  header.classList.add('branded');
  const mark = header.querySelector('.brand');
  const name = header.querySelector('.site-name');
  if (branding.logoUrl && mark) {
    mark.replaceWith(h('img', { class: 'brand-logo', src: branding.logoUrl, alt: '', height: 32 }));
  } else {
    mark?.remove();
  }
  if (name) {
    name.textContent = branding.organizationName;
    name.setAttribute('data-branded', '');
  }
}
