import * as v from 'valibot';
import { ValidationError, type FieldErrors } from '#domain/errors.ts';

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

/** Parses `input` with `schema` or throws a ValidationError naming every offending field. */
export function parseWith<S extends v.GenericSchema>(schema: S, input: unknown, rootName = 'body'): v.InferOutput<S> {
  const result = v.safeParse(schema, input, { abortPipeEarly: true });
  if (result.success) return result.output;
  const errors = issuesToErrors(result.issues, rootName);
  const first = Object.entries(errors)[0];
  const summary = first ? `${first[0]}: ${first[1][0] ?? 'is invalid'}` : 'The request is invalid';
  throw new ValidationError(Object.keys(errors).length > 1 ? `${summary} (and ${String(Object.keys(errors).length - 1)} more)` : summary, errors);
}
