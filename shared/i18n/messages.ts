/**
 * The server's message catalogues (emails and SMS, decision 39): ICU MessageFormat per locale, imported statically so
 * every function bundle carries them (no file reads at run time). `<b>` in a message marks what the HTML version
 * bolds; the text version drops the tag. Dates are written for the locale, in UTC (the recipient's zone is unknown).
 */
import { IntlMessageFormat, type PrimitiveType } from 'intl-messageformat';
import ar from './ar.json' with { type: 'json' };
import de from './de.json' with { type: 'json' };
import en from './en.json' with { type: 'json' };
import es from './es.json' with { type: 'json' };
import fr from './fr.json' with { type: 'json' };
import it from './it.json' with { type: 'json' };
import ja from './ja.json' with { type: 'json' };
import nl from './nl.json' with { type: 'json' };
import pl from './pl.json' with { type: 'json' };
import ptBR from './pt-BR.json' with { type: 'json' };
import zhCN from './zh-CN.json' with { type: 'json' };
import { DEFAULT_LOCALE, type Locale } from './locales.ts';

export type MessageKey = keyof typeof en;
type Catalogue = Partial<Record<MessageKey, string>>;

/** Every locale's messages; a test proves each has English's keys and placeholders. */
export const CATALOGUES: Record<Locale, Catalogue> = { en, de, fr, es, 'pt-BR': ptBR, it, nl, pl, ja, 'zh-CN': zhCN, ar };

export type Values = Record<string, PrimitiveType>;

const formats = new Map<string, IntlMessageFormat>();

function formatOf(locale: Locale, key: MessageKey): IntlMessageFormat {
  const id = `${locale}\u0000${key}`;
  let format = formats.get(id);
  if (!format) {
    const message = CATALOGUES[locale][key] ?? en[key];
    format = new IntlMessageFormat(message, locale);
    formats.set(id, format);
  }
  return format;
}

const joined = (out: string | string[]) => (Array.isArray(out) ? out.join('') : out);

export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** The message as plain text (emails' text part, SMS). */
export function text(locale: Locale, key: MessageKey, values: Values = {}): string {
  return joined(formatOf(locale, key).format<string>({ ...values, b: (chunks: string[]) => chunks.join('') }));
}

/** The message as HTML: the values escaped, `<b>` as `<strong>` (the catalogues' own text has no markup characters). */
export function html(locale: Locale, key: MessageKey, values: Values = {}): string {
  const escaped = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, typeof v === 'string' ? escapeHtml(v) : v]));
  return joined(formatOf(locale, key).format<string>({ ...escaped, b: (chunks: string[]) => `<strong>${chunks.join('')}</strong>` }));
}

/** A moment for the locale, with its time in UTC ("30. Dezember 2026 um 14:00 UTC", "2026年12月30日 14:00 UTC"). */
export const formatDateTime = (locale: Locale, date: Date): string => new Intl.DateTimeFormat(locale, {
  year: 'numeric', month: 'long', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZone: 'UTC', timeZoneName: 'short',
}).format(date);

/** A calendar day for the locale: a date-only value is that day, a timestamp its UTC day. */
export function formatDay(locale: Locale, value: string | Date): string {
  const date = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T12:00:00Z`) : new Date(value);
  return new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }).format(date);
}

export { DEFAULT_LOCALE };
