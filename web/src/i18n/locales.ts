/**
 * The page's languages. Adding one: put its catalogue beside en.json (every key of en.json, the same placeholders;
 * `npm test` checks both), then add a line below. English is bundled with the page (it is the fallback); every other
 * catalogue is a chunk of its own, fetched only by a signer who reads that language.
 */
import type { Catalogue } from './catalogue.ts';
import en from './en.json' with { type: 'json' };

export interface LocaleEntry {
  /** Writing direction of the language: the page's `dir`, so the layout mirrors for right-to-left scripts. */
  dir: 'ltr' | 'rtl';
  load: () => Promise<Catalogue>;
}

export const LOCALES: Record<string, LocaleEntry> = {
  en: { dir: 'ltr', load: () => Promise.resolve(en) },
  de: { dir: 'ltr', load: () => import('./de.json').then((m) => m.default) },
  fr: { dir: 'ltr', load: () => import('./fr.json').then((m) => m.default) },
  es: { dir: 'ltr', load: () => import('./es.json').then((m) => m.default) },
  'pt-BR': { dir: 'ltr', load: () => import('./pt-BR.json').then((m) => m.default) },
  it: { dir: 'ltr', load: () => import('./it.json').then((m) => m.default) },
  nl: { dir: 'ltr', load: () => import('./nl.json').then((m) => m.default) },
  pl: { dir: 'ltr', load: () => import('./pl.json').then((m) => m.default) },
  ja: { dir: 'ltr', load: () => import('./ja.json').then((m) => m.default) },
  'zh-CN': { dir: 'ltr', load: () => import('./zh-CN.json').then((m) => m.default) },
  ar: { dir: 'rtl', load: () => import('./ar.json').then((m) => m.default) },
};

export const DEFAULT_LOCALE = 'en';

/**
 * The locale to use for the signer's preferred languages (BCP 47 tags, best first): the first whose language has a
 * catalogue, kept as asked (en-GB formats dates the British way with the English catalogue); else English.
 */
export function resolveLocale(preferred: readonly string[]): { locale: string; catalogue: string } {
  for (const tag of preferred) {
    let locale: Intl.Locale;
    try {
      locale = new Intl.Locale(tag);
    } catch {
      continue;
    }
    const candidates = [locale.baseName, locale.region ? `${locale.language}-${locale.region}` : '', locale.language];
    const catalogue = candidates.find((c) => c && Object.hasOwn(LOCALES, c));
    if (catalogue) return { locale: locale.baseName, catalogue };
  }
  return { locale: DEFAULT_LOCALE, catalogue: DEFAULT_LOCALE };
}
