/**
 * The message catalogue's types. Messages are written in ICU MessageFormat (plurals, selects, `<strong>` tags for
 * markup). The build parses each catalogue (web/build.ts), so the page ships the formatter without the parser: a
 * message is then either its final text (a string: nothing to fill in) or its parsed form.
 */
import type { MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import type en from './en.json';

/** Every message the pages show, by key: English defines the keys, every other catalogue has the same ones. */
export type MessageKey = keyof typeof en;
export type Catalogue = Record<MessageKey, string | MessageFormatElement[]>;
