/** What a translation must keep of an ICU message: the names it fills in or wraps (`{count}`, `<strong>`). */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isPluralElement, isSelectElement, isTagElement, parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';

export function icuNames(elements: MessageFormatElement[], into = new Set<string>()): Set<string> {
  for (const e of elements) {
    if (e.type === TYPE.literal || e.type === TYPE.pound) continue;
    into.add(isTagElement(e) ? `<${e.value}>` : `{${e.value}}`);
    if (isTagElement(e)) icuNames(e.children, into);
    if (isPluralElement(e) || isSelectElement(e)) for (const option of Object.values(e.options)) icuNames(option.value, into);
  }
  return into;
}

/** The sorted names of a message, parsed strictly (a plural or select without `other` fails). */
export const placeholdersOf = (message: string): string[] => [...icuNames(parse(message, { requiresOtherClause: true, shouldParseSkeletons: true }))].sort();

/** The literal text of a message, every branch of it. */
export function literalsOf(elements: MessageFormatElement[]): string[] {
  return elements.flatMap((e) => {
    if (e.type === TYPE.literal) return [e.value];
    if (isTagElement(e)) return literalsOf(e.children);
    if (isPluralElement(e) || isSelectElement(e)) return Object.values(e.options).flatMap((o) => literalsOf(o.value));
    return [];
  });
}

/** Every `<locale>.json` catalogue of a folder, by locale. */
export function cataloguesIn(dir: string): Record<string, Record<string, string>> {
  return Object.fromEntries(readdirSync(dir).filter((f) => f.endsWith('.json'))
    .map((f) => [f.replace(/\.json$/, ''), JSON.parse(readFileSync(join(dir, f), 'utf8')) as Record<string, string>]));
}

/** The source text of every file below `dir` whose name matches `files`: where a catalogue's keys must be named. */
export function codeUnder(dir: string, files: RegExp): string {
  return readdirSync(dir, { withFileTypes: true }).map((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return codeUnder(path, files);
    return files.test(entry.name) ? readFileSync(path, 'utf8') : '';
  }).join('\n');
}
