/** Type prefixes accepted on input (decision 1); output is always the plain UUID. */
export type IdKind = 'env' | 'doc' | 'sgn' | 'fld' | 'evt' | 'whk' | 'con' | 'app' | 'dlv' | 'tpl' | 'bulk' | 'att';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The plain lowercase UUID of `raw` (bare or `<kind>_<uuid>`), or undefined when it is neither. */
export function parseId(kind: IdKind, raw: string): string | undefined {
  const lowered = raw.trim().toLowerCase();
  const bare = lowered.startsWith(`${kind}_`) ? lowered.slice(kind.length + 1) : lowered;
  return UUID.test(bare) ? bare : undefined;
}
