/**
 * The rules on a text field's `validation` at create. A pattern must be in a small regular-expression syntax that RE2
 * (re2js, which matches it at signing and on the page) certainly compiles and matches in linear time: literals,
 * escapes, classes, groups, alternation, anchors and bounded repeats. No RE2 here: the functions that take PDFs in
 * have no room for it, and this check needs no engine.
 */
import type { FieldErrors } from '../kernel/errors.ts';

export const TEXT_FORMATS = ['email', 'number', 'date'] as const;
export const MAX_PATTERN_CHARS = 200;
/** RE2's own bound on repeat counts, multiplied through nested repeats. */
const MAX_REPEAT = 1000;

const PUNCTUATION = new Set('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~');
const CLASS_ESCAPES = new Set('dDwWsStnrfv');
const ATOM_ESCAPES = new Set('dDwWsStnrfv');
const ZERO_WIDTH_ESCAPES = new Set('bB');

interface Frame { atom: boolean; quantified: boolean; inner: number; group: number }

/** A character class from `i` (just after `[`): the index after its `]`, or a problem. */
function classEnd(pattern: string, start: number): number | string {
  let i = start;
  if (pattern[i] === '^') i++;
  if (pattern[i] === ']') return 'a class may not start with ]: escape it as \\]';
  let previous: string | null = null; // the last plain character, a range's possible start
  for (; i < pattern.length; i++) {
    const c = pattern[i] ?? '';
    if (c === ']') return i === start || (i === start + 1 && pattern[start] === '^') ? 'an empty class' : i + 1;
    if (c === '[') return 'a [ inside a class must be escaped';
    if (c === '\\') {
      const next = pattern[i + 1] ?? '';
      if (!CLASS_ESCAPES.has(next) && !PUNCTUATION.has(next)) return `\\${next} is not supported`;
      previous = PUNCTUATION.has(next) ? next : null;
      i++;
      continue;
    }
    if (c === '-' && pattern[i + 1] !== ']' && i !== start && !(i === start + 1 && pattern[start] === '^')) {
      const end = pattern[i + 1] ?? '';
      if (previous === null || end === '\\' || end === '[' || end === '') return 'a range needs a plain character on each side (a literal - goes first or last)';
      if ((end.codePointAt(0) ?? 0) < (previous.codePointAt(0) ?? 0)) return `the range ${previous}-${end} is backwards`;
      previous = null;
      i++;
      continue;
    }
    previous = c;
  }
  return 'a class is not closed with ]';
}

/** Why a pattern is refused, or null. */
export function patternProblem(pattern: string): string | null {
  if (pattern.length > MAX_PATTERN_CHARS) return `must be at most ${String(MAX_PATTERN_CHARS)} characters`;
  const problem = syntaxProblem(pattern);
  return problem ? `is not a supported pattern (${problem}): use literals, escapes such as \\d, classes, groups, | and bounded repeats; backreferences and lookaround are refused` : null;
}

function syntaxProblem(pattern: string): string | null {
  const root: Frame = { atom: false, quantified: false, inner: 1, group: 1 };
  const frames: Frame[] = [root];
  const top = () => frames.at(-1) ?? root;
  const atom = (inner = 1) => { Object.assign(top(), { atom: true, quantified: false, group: inner }); };
  const repeat = (count: number): string | null => {
    const frame = top();
    if (!frame.atom || frame.quantified) return 'a repeat must follow a character, class or group (and only one)';
    const product = Math.max(count, 1) * frame.group;
    if (product > MAX_REPEAT) return `repeats multiply to more than ${String(MAX_REPEAT)}`;
    frame.inner = Math.max(frame.inner, product);
    frame.quantified = true;
    return null;
  };
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] ?? '';
    if (c === '\\') {
      const next = pattern[i + 1] ?? '';
      if (ZERO_WIDTH_ESCAPES.has(next)) Object.assign(top(), { atom: false, quantified: false });
      else if (ATOM_ESCAPES.has(next) || PUNCTUATION.has(next)) atom();
      else return next === '' ? 'it ends with \\' : `\\${next} is not supported`;
      i++;
    } else if (c === '[') {
      const end = classEnd(pattern, i + 1);
      if (typeof end === 'string') return end;
      atom();
      i = end - 1;
    } else if (c === '(') {
      if (pattern[i + 1] === '?') {
        if (pattern[i + 2] !== ':') return 'only (?: groups are supported (no lookaround, flags or names)';
        i += 2;
      }
      frames.push({ atom: false, quantified: false, inner: 1, group: 1 });
    } else if (c === ')') {
      if (frames.length === 1) return 'a ) has no (';
      const inner = frames.pop()?.inner ?? 1;
      top().inner = Math.max(top().inner, inner);
      atom(inner);
    } else if (c === '|') {
      Object.assign(top(), { atom: false, quantified: false });
    } else if (c === '*' || c === '+' || c === '?') {
      // A lazy repeat (a*?) is one repeat, not two
      if (c === '?' && top().quantified && pattern[i - 1] !== '?') continue;
      const refused = repeat(1);
      if (refused) return refused;
    } else if (c === '{') {
      const counted = /^\{(\d{1,4})(,(\d{0,4}))?\}/.exec(pattern.slice(i));
      if (!counted) return 'a { must start a repeat such as {2,5}, or be escaped';
      const min = Number(counted[1]);
      const max = counted[2] === undefined ? min : counted[3] === '' ? null : Number(counted[3]);
      if (min > MAX_REPEAT || (max !== null && (max > MAX_REPEAT || max < min))) return `a repeat count must be at most ${String(MAX_REPEAT)}, the second not below the first`;
      const refused = repeat(max ?? min);
      if (refused) return refused;
      i += counted[0].length - 1;
      if (pattern[i + 1] === '?') i++;
    } else if (c === '}' || c === ']') {
      return `a ${c} must be escaped`;
    } else if (c === '^' || c === '$') {
      Object.assign(top(), { atom: false, quantified: false });
    } else {
      atom();
    }
  }
  return frames.length > 1 ? 'a ( is not closed' : null;
}

/** The rules on a field's `validation`, keyed by `${path}.validation.<attribute>`. */
export function validationErrors(type: string, validation: { format?: string | undefined; minLength?: number | undefined; maxLength?: number | undefined; pattern?: string | undefined } | null | undefined, path: string): FieldErrors {
  if (!validation) return {};
  const at = (attribute: string) => (path ? `${path}.validation.${attribute}` : `validation.${attribute}`);
  if (type !== 'text') return { [path ? `${path}.validation` : 'validation']: [`only text fields take a validation, not ${type}`] };
  const errors: FieldErrors = {};
  const { minLength, maxLength, pattern } = validation;
  if (minLength !== undefined && maxLength !== undefined && minLength > maxLength) errors[at('minLength')] = ['must not be greater than maxLength'];
  const problem = pattern === undefined ? null : patternProblem(pattern);
  if (problem) errors[at('pattern')] = [problem];
  return errors;
}
