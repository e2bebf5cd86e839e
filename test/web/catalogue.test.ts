/**
 * The message catalogues: every message is ICU MessageFormat, every language has English's keys with the same
 * placeholders and tags, every catalogue is registered, and every English message is used by the pages.
 */
import { join } from 'node:path';
import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import { LOCALES, resolveLocale } from '../../web/src/i18n/locales.ts';
import { cataloguesIn, codeUnder, placeholdersOf } from '../support/icu.ts';

const catalogues = cataloguesIn(join(process.cwd(), 'web', 'src', 'i18n'));
const english = catalogues.en ?? {};

describe('message catalogues', () => {
  it('are all registered, English among them', () => {
    expect(Object.keys(catalogues).sort()).toEqual(Object.keys(LOCALES).sort());
    expect(Object.keys(english).length).toBeGreaterThan(100);
  });

  for (const [locale, messages] of Object.entries(catalogues)) {
    it(`${locale}: every message parses and has English's placeholders and tags`, () => {
      expect(Object.keys(messages).sort()).toEqual(Object.keys(english).sort());
      for (const [key, message] of Object.entries(messages)) expect(placeholdersOf(message), `${locale} ${key}`).toEqual(placeholdersOf(english[key] ?? ''));
    });
  }

  it('are used: every English message is named in the pages’ code', () => {
    const code = codeUnder(join(process.cwd(), 'web', 'src'), /\.ts$/);
    const unused = Object.keys(english).filter((key) => !code.includes(`'${key}'`));
    expect(unused).toEqual([]);
  });

  it('format plurals, numbers and tags for the locale', () => {
    const progress = (locale: string, done: number, total: number) => new IntlMessageFormat(english['document.progress'] ?? '', locale).format({ done, total });
    expect(progress('en', 0, 4)).toBe('0 of 4 required fields done');
    expect(progress('en', 1, 1)).toBe('1 of 1 required field done');
    expect(progress('en-IN', 0, 100000)).toBe('0 of 1,00,000 required fields done');
    interface Bold { b: unknown[] }
    const parts = new IntlMessageFormat(english['otp.lead'] ?? '', 'en').format<Bold>({ subject: 'NDA', strong: (chunks: unknown[]): Bold => ({ b: chunks }) });
    expect(parts).toEqual(['You have been asked to sign ', { b: ['NDA'] }, '.']);
  });
});

describe('the page’s locale', () => {
  it('is the first preferred language with a catalogue, kept as asked for formats; English otherwise', () => {
    expect(resolveLocale(['en-GB', 'de'])).toEqual({ locale: 'en-GB', catalogue: 'en' });
    expect(resolveLocale(['xx-invalid-!!', 'en-US'])).toEqual({ locale: 'en-US', catalogue: 'en' });
    expect(resolveLocale(['tlh'])).toEqual({ locale: 'en', catalogue: 'en' });
    expect(resolveLocale([])).toEqual({ locale: 'en', catalogue: 'en' });
  });
});
