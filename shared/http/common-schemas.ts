import * as v from 'valibot';
import { parseId, type IdKind } from '#shared/kernel/ids.ts';

/** An id in a request body: plain UUID or `<kind>_<uuid>` (decision 1), normalised to the plain UUID. */
export const idOf = (kind: IdKind, what: string) =>
  v.pipe(
    v.string(`must be a ${what} id`),
    v.check((raw) => parseId(kind, raw) !== undefined, `is not a valid ${what} id`),
    v.transform((raw) => parseId(kind, raw) ?? raw),
  );

/** A query-string integer within bounds, with a default when absent. */
export const queryInt = (min: number, max: number, fallback: number) =>
  v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d+$/, `must be an integer between ${String(min)} and ${String(max)}`),
      v.transform(Number),
      v.minValue(min, `must be at least ${String(min)}`),
      v.maxValue(max, `must be at most ${String(max)}`),
    ),
    String(fallback),
  );

export const finiteNumber = v.pipe(v.number('must be a number'), v.finite('must be a finite number'));

/** Path parameters carry raw strings; the use case resolves (or 404s) the id. */
export const IdParams = v.object({ id: v.string() });

/**
 * A tenant identifier: trimmed, 1 to 128 characters on every route, so it always fits the keys it becomes
 * part of (decision 7).
 */
export const TenantId = v.pipe(v.string('is required'), v.trim(), v.nonEmpty('is required'), v.maxLength(128, 'must be at most 128 characters'));
