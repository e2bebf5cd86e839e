/**
 * The page's language: one value (`locale`, a BCP 47 tag) that picks the catalogue, the formats of dates and numbers,
 * and the document's `lang` and `dir`. `t` formats a message; `rich` one with markup tags.
 */
import { IntlMessageFormat, type PrimitiveType } from 'intl-messageformat';
import type { Catalogue, MessageKey } from './catalogue.ts';
import { DEFAULT_LOCALE, LOCALES, resolveLocale } from './locales.ts';

interface Active { locale: string; dir: 'ltr' | 'rtl'; catalogue: Catalogue }

const english = LOCALES[DEFAULT_LOCALE];
let active: Active | null = null;
const formats = new Map<MessageKey, IntlMessageFormat>();

/** Loads the catalogue for the preferred languages and applies it to the document (`lang`, `dir`). */
export async function setLocale(preferred: readonly string[]): Promise<void> {
  const { locale, catalogue } = resolveLocale(preferred);
  const entry = LOCALES[catalogue] ?? english;
  if (!entry) throw new Error('no English catalogue');
  let messages: Catalogue;
  try {
    messages = await entry.load();
  } catch {
    // a catalogue chunk that cannot be fetched: English, rather than no page
    await setLocale([DEFAULT_LOCALE]);
    return;
  }
  active = { locale, dir: entry.dir, catalogue: messages };
  formats.clear();
  document.documentElement.lang = locale;
  document.documentElement.dir = entry.dir;
}

function current(): Active {
  if (!active) throw new Error('setLocale has not run');
  return active;
}

export const locale = () => current().locale;

function format(key: MessageKey): IntlMessageFormat {
  let f = formats.get(key);
  if (!f) {
    const { catalogue, locale: tag } = current();
    f = new IntlMessageFormat(catalogue[key], tag);
    formats.set(key, f);
  }
  return f;
}

export type Values = Record<string, PrimitiveType>;

/** The message `key` in the page's language, with its placeholders filled in. */
export function t(key: MessageKey, values?: Values): string {
  const message = current().catalogue[key];
  if (typeof message === 'string') return message;
  const out = format(key).format<string>(values);
  return Array.isArray(out) ? out.join('') : out;
}

/** Markup in a message: each tag (`<strong>{subject}</strong>`) is built by the function of that name. */
export type Tags<N> = Record<string, PrimitiveType | ((chunks: (string | N)[]) => N)>;

/** A message with tags, as text and nodes in the message's order (which a translation may change). */
export function rich<N>(key: MessageKey, values: Tags<N>): (string | N)[] {
  const message = current().catalogue[key];
  if (typeof message === 'string') return [message];
  const out = format(key).format<N>(values);
  return Array.isArray(out) ? out : [out];
}

/** A whole number, grouped the page's way (1,000 / 1.000 / 1 000). */
export const formatNumber = (value: number, options?: Intl.NumberFormatOptions) => new Intl.NumberFormat(locale(), options).format(value);

/** A day (a date-only value is that calendar day, wherever the signer is) or a timestamp's day, written out. */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '';
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(iso);
  const date = new Date(dateOnly ? `${iso}T12:00:00Z` : iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(locale(), { year: 'numeric', month: 'long', day: 'numeric', ...(dateOnly ? { timeZone: 'UTC' } : {}) }).format(date);
}

/** A file size in the page's units and digits (kB, MB). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return formatNumber(bytes, { style: 'unit', unit: 'byte', unitDisplay: 'long' });
  if (bytes < 1024 * 1024) return formatNumber(Math.round(bytes / 1024), { style: 'unit', unit: 'kilobyte' });
  return formatNumber(bytes / 1024 / 1024, { style: 'unit', unit: 'megabyte', maximumFractionDigits: 1 });
}

/** A wait in minutes and seconds ("2 min, 5 sec"). */
export function formatWait(seconds: number): string {
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  const unit = (value: number, name: 'minute' | 'second') => formatNumber(value, { style: 'unit', unit: name, unitDisplay: 'short' });
  if (m === 0) return unit(s, 'second');
  return new Intl.ListFormat(locale(), { type: 'unit', style: 'narrow' }).format([unit(m, 'minute'), unit(s, 'second')]);
}
