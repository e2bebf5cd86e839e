/**
 * What a citation of a document outside the repository looks like: the repository owns its reasoning
 * (docs/decisions.md), so no file, comment or API description may send a reader to notes they do not have.
 */

/**
 * An addition referred to by its letter and number ("A7", "A3's rules", "(A4; ...)"). Not: the A4 paper size
 * ("A4 pages", "A4 portrait"), a constant named A4 (`const A4 =`, `box: A4,`, `A4.width`), hex or percent escapes
 * (`%E0%A4%A`, `0xA5`), a filter's short name in quotes (`'A85'`).
 */
export const ADDITION_REFERENCE =
  /(?<![\w%#.'"`-]|\w\(|(?:const|let|var)\s+|[:=?[]\s*)A(?:1[0-9]|[1-9])(?:'s\b|(?=[),;]|\.(?:\s|$)|\s+(?!(?:pages?|portrait|landscape|paper|sheets?|sizes?|format)\b|=)|$))/;

/** Patterns that cite a document outside the repository, by name. */
export const OUTSIDE_CITATIONS: readonly { name: string; pattern: RegExp }[] = [
  { name: 'the decisions table', pattern: /\bDECISIONS\b/ },
  { name: 'the additions list', pattern: /\bADDITIONS\b/ },
  { name: 'the design notes', pattern: /\bDESIGN(\.md)?\b/ },
  { name: 'the style guide', pattern: /STYLE\.md/ },
  { name: 'the published specification file', pattern: /api-spec/ },
  { name: 'a specification section', pattern: /\bspec\s+§?\s*\d+(\.\d+)*\b/i },
  { name: 'an issue number', pattern: /\bissue\s+#?\d+\b/i },
  { name: 'an addition', pattern: ADDITION_REFERENCE },
];

/** The names of the patterns `text` matches; empty when it cites nothing outside. */
export const outsideCitationsIn = (text: string): string[] =>
  OUTSIDE_CITATIONS.filter(({ pattern }) => pattern.test(text)).map(({ name }) => name);
