import * as v from 'valibot';
import { ValidationError, type FieldErrors } from '#shared/kernel/errors.ts';

/** `signers[0].email` from a valibot issue path. */
function pathOf(issue: v.BaseIssue<unknown>): string {
  let path = '';
  for (const item of issue.path ?? []) {
    const key = item.key;
    if (typeof key === 'number') path += `[${String(key)}]`;
    else path += path ? `.${String(key)}` : String(key);
  }
  return path;
}

export function issuesToErrors(issues: readonly v.BaseIssue<unknown>[], rootName: string): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const path = pathOf(issue) || rootName;
    (errors[path] ??= []).push(issue.message);
  }
  return errors;
}

// With the `u` flag a surrogate pair is one code point, so this matches only a surrogate standing alone.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/**
 * Every string (and object key) in `input` is well-formed Unicode, or a 400 names the first that is not. A lone
 * surrogate is valid JSON but no valid UTF-8: it cannot reach a header, an S3 key, a URL or an email.
 */
export function assertWellFormed(input: unknown, path: string): void {
  if (typeof input === 'string') {
    if (LONE_SURROGATE.test(input)) throw ValidationError.at(path, 'is not well-formed Unicode (it holds a lone surrogate)');
  } else if (Array.isArray(input)) {
    input.forEach((item, index) => { assertWellFormed(item, `${path}[${String(index)}]`); });
  } else if (input !== null && typeof input === 'object') {
    for (const [key, value] of Object.entries(input)) {
      assertWellFormed(key, path);
      assertWellFormed(value, `${path}.${key}`);
    }
  }
}

/** Parses `input` with `schema` or throws a ValidationError naming every offending field. */
export function parseWith<S extends v.GenericSchema>(schema: S, input: unknown, rootName = 'body'): v.InferOutput<S> {
  assertWellFormed(input, rootName);
  const result = v.safeParse(schema, input, { abortPipeEarly: true });
  if (result.success) return result.output;
  const errors = issuesToErrors(result.issues, rootName);
  const first = Object.entries(errors)[0];
  const summary = first ? `${first[0]}: ${first[1][0] ?? 'is invalid'}` : 'The request is invalid';
  throw new ValidationError(Object.keys(errors).length > 1 ? `${summary} (and ${String(Object.keys(errors).length - 1)} more)` : summary, errors);
}
