/**
 * Every item of a list route, page after page, as an async iterator:
 *
 *   for await (const envelope of paginate(api, '/v1/envelopes', { query: { tenantId: 'acme', status: 'sent' } })) { ... }
 *
 * Numbered lists (`page`, `pageSize`, answered with `total`) are read until `total` items were seen or a page comes
 * back empty; cursor lists (`after`, answered with `nextCursor`) until the cursor is null. Errors throw an ApiCallError.
 */
import type { EsignClient } from './client-types.ts';
import type { paths } from './schema.d.ts';
import { ApiCallError } from './client-errors.ts';

type Json<P extends keyof paths> = paths[P] extends { get: { responses: { 200: { content: { 'application/json': infer J } } } } } ? J : never;

/** The GET routes that answer `{ data: [...], total }` (numbered) or `{ data: [...], nextCursor }` (cursor). */
export type ListPath = { [P in keyof paths]: Json<P> extends { data: unknown[] } ? (Json<P> extends { total: number } | { nextCursor: string | null } ? P : never) : never }[keyof paths];
export type ListItem<P extends ListPath> = Json<P> extends { data: (infer I)[] } ? I : never;
type Params<P extends ListPath> = paths[P] extends { get: { parameters: infer X } } ? X : never;
type Query<P extends ListPath> = Omit<NonNullable<Params<P> extends { query?: infer Q } ? Q : never>, 'page' | 'after'>;
type PathParams<P extends ListPath> = Params<P> extends { path: infer A } ? A : never;

export type PaginateOptions<P extends ListPath> =
  ([PathParams<P>] extends [never] ? { path?: never } : { path: PathParams<P> })
  & ([keyof Query<P>] extends [never] ? { query?: never } : Record<string, never> extends Query<P> ? { query?: Query<P> } : { query: Query<P> })
  & { signal?: AbortSignal };

interface Page { data: unknown[]; total?: number; nextCursor?: string | null }

/** Yields every item of a list route; stops at `total`, an empty page, or a null cursor. */
export async function* paginate<P extends ListPath>(api: EsignClient, path: P, options: PaginateOptions<P>): AsyncGenerator<ListItem<P>, void, undefined> {
  const base = { ...(options.query ?? {}) } as Record<string, unknown>;
  let page = 1;
  let cursor: string | undefined;
  let seen = 0;
  for (;;) {
    // The first request asks for the default first page, so it suits both kinds; the answer tells which kind it is.
    const query = cursor !== undefined ? { ...base, after: cursor } : page > 1 ? { ...base, page } : base;
    const init = { params: { path: options.path, query }, signal: options.signal };
    const { data, error, response } = await (api.GET as (p: string, i: unknown) => Promise<{ data?: Page; error?: unknown; response: Response }>)(path, init);
    if (!data) throw new ApiCallError(`GET ${path}`, response, error);
    for (const item of data.data) yield item as ListItem<P>;
    seen += data.data.length;
    if (data.data.length === 0) return;
    if ('nextCursor' in data) {
      if (!data.nextCursor) return;
      cursor = data.nextCursor;
    } else {
      if (typeof data.total !== 'number' || seen >= data.total) return;
      page += 1;
    }
  }
}

/** All items of a list route in one array (for small lists; prefer `paginate` for large ones). */
export async function listAll<P extends ListPath>(api: EsignClient, path: P, options: PaginateOptions<P>): Promise<ListItem<P>[]> {
  const items: ListItem<P>[] = [];
  for await (const item of paginate(api, path, options)) items.push(item);
  return items;
}
