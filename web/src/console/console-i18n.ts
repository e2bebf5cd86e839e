/**
 * The console's language: its own catalogues (web/src/console/i18n, ICU MessageFormat, parsed at build time like the
 * signing page's) in the signing page's languages. The choice is kept for the browser session under the same key as
 * the signing page's switch, else the browser's languages decide.
 */
import { IntlMessageFormat, type PrimitiveType } from 'intl-messageformat';
import type { MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import type en from './i18n/en.json';
import english from './i18n/en.json' with { type: 'json' };
import { LOCALES, resolveLocale } from '../i18n/locales.ts';

export type ConsoleKey = keyof typeof en;
type Catalogue = Record<ConsoleKey, string | MessageFormatElement[]>;

/** Every catalogue but English is a chunk of its own, fetched only by someone who reads that language. */
const LOADERS: Record<string, () => Promise<Catalogue>> = {
  en: () => Promise.resolve(english),
  de: () => import('./i18n/de.json').then((m) => m.default),
  fr: () => import('./i18n/fr.json').then((m) => m.default),
  es: () => import('./i18n/es.json').then((m) => m.default),
  'pt-BR': () => import('./i18n/pt-BR.json').then((m) => m.default),
  it: () => import('./i18n/it.json').then((m) => m.default),
  nl: () => import('./i18n/nl.json').then((m) => m.default),
  pl: () => import('./i18n/pl.json').then((m) => m.default),
  ja: () => import('./i18n/ja.json').then((m) => m.default),
  'zh-CN': () => import('./i18n/zh-CN.json').then((m) => m.default),
  ar: () => import('./i18n/ar.json').then((m) => m.default),
};

export const CONSOLE_LOCALES = Object.keys(LOADERS);
const CHOICE = 'esign.locale';

let current = { locale: 'en', catalogue: english as Catalogue };
const formats = new Map<ConsoleKey, IntlMessageFormat>();

function chosen(): string | null {
  try {
    return sessionStorage.getItem(CHOICE);
  } catch {
    return null;
  }
}

/** Loads the catalogue for the session's choice (or `tag`) and applies it to the document (`lang`, `dir`). */
export async function setConsoleLocale(tag?: string): Promise<void> {
  if (tag) {
    try {
      sessionStorage.setItem(CHOICE, tag);
    } catch { /* storage blocked: this page only */ }
  }
  const choice = tag ?? chosen();
  const preferred = choice ? [choice] : navigator.languages.length > 0 ? navigator.languages : [navigator.language];
  const { locale, catalogue } = resolveLocale(preferred);
  const load = LOADERS[catalogue] ?? LOADERS.en;
  let messages: Catalogue = english;
  try {
    if (load) messages = await load();
  } catch {
    // a catalogue chunk that cannot be fetched: English, rather than no console
  }
  current = { locale, catalogue: messages };
  formats.clear();
  document.documentElement.lang = locale;
  document.documentElement.dir = LOCALES[catalogue]?.dir ?? 'ltr';
}

export const consoleLocale = () => current.locale;
/** The catalogue in use (a locale tag of CONSOLE_LOCALES). */
export const consoleCatalogue = () => resolveLocale([current.locale]).catalogue;

/** The message `key` in the console's language, its placeholders filled in. */
export function t(key: ConsoleKey, values?: Record<string, PrimitiveType>): string {
  const message = current.catalogue[key];
  if (typeof message === 'string') return message;
  let format = formats.get(key);
  if (!format) {
    format = new IntlMessageFormat(message, current.locale);
    formats.set(key, format);
  }
  const out = format.format<string>(values);
  return Array.isArray(out) ? out.join('') : out;
}

/** A timestamp as a date and time in the console's language. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(current.locale, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

/** A language's name in that language ("Deutsch", "日本語"), capitalised as a menu item. */
export function languageName(tag: string): string {
  const name = new Intl.DisplayNames([tag], { type: 'language' }).of(tag) ?? tag;
  return name.charAt(0).toLocaleUpperCase(tag) + name.slice(1);
}
