/** What the counted calls touched, in words: the kinds of DynamoDB item (ids left out) and the job types an SQS message carries. */

type Item = Record<string, unknown>;

/** A key's kind: its prefixes, the ids and numbers left out. */
const kindOf = (value: unknown) => String(typeof value === 'object' && value !== null ? Object.values(value)[0] : value).replace(/#[^#]*[0-9][^#]*/g, '#').replace(/^(RATE#[a-z]+)#.*/, '$1');

/** The kinds of item a DynamoDB command touches: `ENV#/ENV + ENV#/OUT# x2`. */
export function itemKinds(input: Record<string, unknown>): string {
  const keys: { PK?: unknown; SK?: unknown }[] = [];
  const add = (body: { Key?: Item; Item?: Item } | undefined) => { const key = body?.Key ?? body?.Item; if (key) keys.push(key); };
  add(input);
  for (const entry of (input.TransactItems ?? []) as Record<string, { Key?: Item; Item?: Item }>[]) for (const body of Object.values(entry)) add(body);
  for (const requests of Object.values((input.RequestItems ?? {}) as Record<string, Record<string, { Key?: Item; Item?: Item }>[] | { Keys?: Item[] }>)) {
    if (Array.isArray(requests)) for (const r of requests) for (const body of Object.values(r)) add(body);
    else for (const key of requests.Keys ?? []) keys.push(key);
  }
  const values = input.ExpressionAttributeValues as Record<string, unknown> | undefined;
  if (keys.length === 0 && typeof input.KeyConditionExpression === 'string') return `query ${(typeof input.IndexName === 'string' ? input.IndexName : 'table')} ${Object.values(values ?? {}).map(kindOf).join(' ')}`;
  const count = new Map<string, number>();
  for (const key of keys) { const kind = `${kindOf(key.PK)}/${kindOf(key.SK)}`; count.set(kind, (count.get(kind) ?? 0) + 1); }
  return [...count].map(([k, n]) => (n > 1 ? `${k} x${String(n)}` : k)).join(' + ');
}

/** `webhook.event x2, retention.tag`: the job types of message bodies (a body may carry several jobs). */
export function jobTypes(bodies: readonly (string | undefined)[]): string {
  const count = new Map<string, number>();
  for (const body of bodies) {
    let parsed: unknown;
    try { parsed = JSON.parse(body ?? 'null'); } catch { parsed = null; }
    const list = (parsed as { jobs?: unknown[] } | null)?.jobs ?? [parsed];
    for (const job of list) {
      const type = (job as { type?: string } | null)?.type ?? 'unknown';
      count.set(type, (count.get(type) ?? 0) + 1);
    }
  }
  return [...count].sort().map(([t, n]) => (n > 1 ? `${t} x${String(n)}` : t)).join(', ');
}

/** DynamoDB's item size: attribute names plus values (strings and binaries by length, numbers about a byte per two digits). */
export function itemSize(item: Item | undefined): number {
  if (!item) return 0;
  return Object.entries(item).reduce((n, [name, value]) => n + Buffer.byteLength(name) + valueSize(value), 0);
}

function valueSize(value: unknown): number {
  if (value === null || value === undefined || typeof value === 'boolean') return 1;
  if (typeof value === 'string') return Buffer.byteLength(value);
  if (typeof value === 'number' || typeof value === 'bigint') return Math.ceil(String(value).replace(/[-.]/g, '').length / 2) + 1;
  if (value instanceof Uint8Array) return value.byteLength;
  if (value instanceof Set) return [...(value as Set<unknown>)].reduce((n: number, v) => n + valueSize(v), 0);
  if (Array.isArray(value)) return 3 + value.reduce((n: number, v) => n + 1 + valueSize(v), 0);
  if (typeof value === 'object') return 3 + Object.entries(value).reduce((n, [k, v]) => n + Buffer.byteLength(k) + 1 + valueSize(v), 0);
  return 0;
}
