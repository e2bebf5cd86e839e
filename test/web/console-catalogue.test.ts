/**
 * The console's catalogues (web/src/console/i18n): every message is ICU MessageFormat, every language of the signing
 * page has one with English's keys, placeholders and tags, each is registered, and every English message is used.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import { LOCALES } from '../../web/src/i18n/locales.ts';
import { cataloguesIn, codeUnder, placeholdersOf } from '../support/icu.ts';

const CONSOLE = join(process.cwd(), 'web', 'src', 'console');
const catalogues = cataloguesIn(join(CONSOLE, 'i18n'));
const english = catalogues.en ?? {};

describe('console catalogues', () => {
  it('exist for every language of the signing page and are all loaded by the console', () => {
    expect(Object.keys(catalogues).sort()).toEqual(Object.keys(LOCALES).sort());
    const loader = readFileSync(join(CONSOLE, 'console-i18n.ts'), 'utf8');
    for (const locale of Object.keys(catalogues).filter((l) => l !== 'en')) expect(loader).toContain(`import('./i18n/${locale}.json')`);
  });

  for (const [locale, messages] of Object.entries(catalogues)) {
    it(`${locale}: every message parses and has English's placeholders and tags`, () => {
      expect(Object.keys(messages).sort()).toEqual(Object.keys(english).sort());
      for (const [key, message] of Object.entries(messages)) expect(placeholdersOf(message), `${locale} ${key}`).toEqual(placeholdersOf(english[key] ?? ''));
    });
  }

  it('are translated: no language but English repeats English in most of its messages', () => {
    for (const [locale, messages] of Object.entries(catalogues).filter(([l]) => l !== 'en')) {
      const same = Object.keys(english).filter((key) => messages[key] === english[key] && !/^\{\w+\}/.test(english[key] ?? ''));
      expect(same.length, `${locale}: ${same.join(', ')}`).toBeLessThan(12);
    }
  });

  it('are used: every English message is named in the console code', () => {
    const code = codeUnder(CONSOLE, /\.tsx?$/);
    expect(Object.keys(english).filter((key) => !code.includes(`'${key}'`))).toEqual([]);
  });

  it('format plurals in the language', () => {
    const count = (locale: string, total: number) => new IntlMessageFormat(catalogues[locale]?.['envelopes.count'] ?? '', locale).format({ total });
    expect(count('en', 0)).toBe('No envelopes');
    expect(count('en', 1)).toBe('1 envelope');
    expect(count('de', 2)).toBe('2 Umschläge');
    expect(count('pl', 5)).toBe('5 kopert');
  });
});
