/**
 * The languages a signer can read their emails, SMS and signing page in (decision 39). `ar` proves the
 * right-to-left layout. The audit certificate stays in English whatever the locale.
 */
export const LOCALES = ['en', 'de', 'fr', 'es', 'pt-BR', 'it', 'nl', 'pl', 'ja', 'zh-CN', 'ar'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

export const isLocale = (value: unknown): value is Locale => typeof value === 'string' && (LOCALES as readonly string[]).includes(value);

/** The locale a message to a recipient is written in: theirs, else the tenant's default, else English. */
export const localeOf = (...candidates: (string | null | undefined)[]): Locale => candidates.find(isLocale) ?? DEFAULT_LOCALE;
