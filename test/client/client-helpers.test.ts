import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ApiCallError, bearerToken, createEsignClient, listAll, paginate, uploadDocument } from '../../client/index.ts';

interface Seen { method: string; url: URL; contentType: string | null; bytes: Uint8Array; auth: string | null }

/** A client whose fetch answers from `answer` and records every request. */
function fakeClient(answer: (request: Seen) => { status?: number; json: unknown }) {
  const seen: Seen[] = [];
  const fetch = async (input: Request) => {
    const request = { method: input.method, url: new URL(input.url), contentType: input.headers.get('content-type'), bytes: new Uint8Array(await input.arrayBuffer()), auth: input.headers.get('authorization') };
    seen.push(request);
    const { status = 200, json } = answer(request);
    return new Response(JSON.stringify(json), { status, headers: { 'content-type': 'application/json' } });
  };
  const api = createEsignClient({ baseUrl: 'https://api.example.test', fetch });
  api.use(bearerToken('t0ken'));
  return { api, seen };
}

const PDF = new TextEncoder().encode('%PDF-1.7\n% fake but exact bytes \u00e9\n%%EOF\n');
const upload = { documentId: 'd1', name: 'a.pdf', order: 1, sha256: 'x', pageCount: 1, sizeBytes: PDF.byteLength };

describe('uploads from any kind of bytes', () => {
  const kinds: [string, () => unknown][] = [
    ['a Buffer', () => Buffer.from(PDF)],
    ['a Uint8Array', () => PDF],
    ['an ArrayBuffer', () => PDF.slice().buffer],
    ['a Blob', () => new Blob([PDF])],
    ['a web ReadableStream in two chunks', () => new ReadableStream({ start(c) { c.enqueue(PDF.subarray(0, 5)); c.enqueue(PDF.subarray(5)); c.close(); } })],
    ['a Node stream', () => Readable.from([Buffer.from(PDF.subarray(0, 7)), Buffer.from(PDF.subarray(7))])],
  ];
  for (const [what, make] of kinds) {
    it(`sends ${what} as the exact PDF bytes, not JSON`, async () => {
      const { api, seen } = fakeClient(() => ({ status: 201, json: upload }));
      expect(await uploadDocument(api, 'env-1', make() as Blob, { filename: 'a.pdf', idempotencyKey: 'k-1' })).toEqual(upload);
      expect(seen).toHaveLength(1);
      expect(seen[0]?.url.pathname).toBe('/v1/envelopes/env-1/document');
      expect(seen[0]?.url.searchParams.get('filename')).toBe('a.pdf');
      expect(seen[0]?.contentType).toBe('application/pdf');
      expect(seen[0]?.auth).toBe('Bearer t0ken');
      expect(Buffer.from(seen[0]?.bytes ?? []).equals(Buffer.from(PDF))).toBe(true);
    });
  }

  it('sends bytes given to the raw call as they are (the typed body is binary)', async () => {
    const { api, seen } = fakeClient(() => ({ status: 201, json: upload }));
    await api.POST('/v1/envelopes/{id}/document', { params: { path: { id: 'env-2' } }, body: PDF, headers: { 'content-type': 'application/pdf' } });
    expect(Buffer.from(seen[0]?.bytes ?? []).equals(Buffer.from(PDF))).toBe(true);
  });

  it('throws an ApiCallError with the status, code and reason of a refusal', async () => {
    const { api } = fakeClient(() => ({ status: 400, json: { error: 'validation_error', status: 400, message: 'Not a PDF', reason: 'not_pdf' } }));
    const error = await uploadDocument(api, 'env-3', PDF).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiCallError);
    expect(error).toMatchObject({ status: 400, code: 'validation_error', reason: 'not_pdf' });
  });
});

describe('pagination', () => {
  it('walks numbered pages until total, keeping the caller\'s query', async () => {
    const all = Array.from({ length: 5 }, (_, i) => ({ id: `e${String(i)}` }));
    const { api, seen } = fakeClient(({ url }) => {
      const page = Number(url.searchParams.get('page') ?? '1');
      const size = Number(url.searchParams.get('pageSize') ?? '20');
      return { json: { data: all.slice((page - 1) * size, page * size), total: all.length, page, pageSize: size } };
    });
    const ids: string[] = [];
    for await (const envelope of paginate(api, '/v1/envelopes', { query: { tenantId: 'acme', pageSize: 2, status: 'sent' } })) ids.push(envelope.id);
    expect(ids).toEqual(['e0', 'e1', 'e2', 'e3', 'e4']);
    expect(seen.map((r) => r.url.searchParams.get('page'))).toEqual([null, '2', '3']);
    expect(seen.every((r) => r.url.searchParams.get('tenantId') === 'acme' && r.url.searchParams.get('status') === 'sent')).toBe(true);
  });

  it('stops at an empty page even if total says more, and throws on an error answer', async () => {
    const { api } = fakeClient(({ url }) => ({ json: { data: url.searchParams.get('page') ? [] : [{ id: 'only' }], total: 99, page: 1, pageSize: 20 } }));
    expect((await listAll(api, '/v1/templates', { query: { tenantId: 'acme' } })).map((t) => t.id)).toEqual(['only']);
    const failing = fakeClient(() => ({ status: 404, json: { error: 'not_found', status: 404, message: 'No such bulk send' } }));
    await expect(listAll(failing.api, '/v1/bulk-sends/{id}/envelopes', { path: { id: 'b1' } })).rejects.toMatchObject({ status: 404, code: 'not_found' });
  });

  it('follows nextCursor with after= until it is null', async () => {
    const { api, seen } = fakeClient(({ url }) => {
      const after = url.searchParams.get('after');
      return { json: after === null ? { data: [{ id: 'e1' }, { id: 'e2' }], nextCursor: 'c2' } : after === 'c2' ? { data: [{ id: 'e3' }], nextCursor: null } : { data: [] } };
    });
    const items: unknown[] = [];
    for await (const item of paginate(api, '/v1/envelopes' as never, { query: { limit: 2 } } as never)) items.push(item);
    expect(items).toEqual([{ id: 'e1' }, { id: 'e2' }, { id: 'e3' }]);
    expect(seen.map((r) => r.url.searchParams.get('after'))).toEqual([null, 'c2']);
  });
});
