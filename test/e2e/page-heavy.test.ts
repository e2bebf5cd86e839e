/**
 * The most pages one envelope holds, over HTTP: five 2,000-page PDFs uploaded to one draft, a field on the last page
 * of the fifth, the envelope read back and sent, and the signer shown every page. The records hold no page (they
 * are stored beside the PDFs), so none of this outgrows a DynamoDB item.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { call, newApp } from '#test/support/api.ts';
import type { EnvelopeBody } from '#test/support/envelopes.ts';
import { DOCUMENTS, heavyPdf, PAGES } from '#test/support/page-heavy.ts';
import { signing, tokenOf } from '#test/support/signing.ts';

let token: string;
beforeAll(async () => { token = (await newApp('page-heavy')).token; });

describe('five 2,000-page documents in one draft, over HTTP', () => {
  it('takes every upload, a field on the last page of the fifth, reads the envelope back, sends, and shows every page', async () => {
    const draft = await call<EnvelopeBody>('POST', '/v1/envelopes', { token, json: { tenantId: 'heavy', signers: [{ name: 'Ana', email: 'ana@example.com', authMethod: 'none' }] } });
    expect(draft.status).toBe(201);
    const bytes = await heavyPdf();
    const uploads: string[] = [];
    for (let i = 1; i <= DOCUMENTS; i++) {
      const upload = await call<{ documentId: string; pageCount: number }>('POST', `/v1/envelopes/${draft.body.id}/document?filename=part-${String(i)}.pdf`, {
        token, raw: { bytes, contentType: 'application/pdf' },
      });
      expect(upload.status, `upload ${String(i)}`).toBe(201);
      expect(upload.body.pageCount).toBe(PAGES);
      uploads.push(upload.body.documentId);
    }
    const fifth = uploads.at(-1) ?? '';
    const signerId = draft.body.signers[0]?.id ?? '';
    const field = { documentId: fifth, signerId, type: 'signature', x: 1, y: 1, w: 10, h: 10 };
    const past = await call<{ errors: Record<string, string[]> }>('POST', `/v1/envelopes/${draft.body.id}/fields`, { token, json: { ...field, page: PAGES + 1 } });
    expect(past.status).toBe(400);
    expect(past.body.errors.page?.[0]).toContain(String(PAGES));
    const placed = await call<{ id: string }>('POST', `/v1/envelopes/${draft.body.id}/fields`, { token, json: { ...field, page: PAGES } });
    expect(placed.status).toBe(201);

    const read = await call<EnvelopeBody>('GET', `/v1/envelopes/${draft.body.id}`, { token });
    expect(read.status).toBe(200);
    expect(read.body.documents.map((d) => [d.id, d.pageCount, d.order])).toEqual(uploads.map((id, i) => [id, PAGES, i + 1]));
    expect(read.body.fields).toMatchObject([{ id: placed.body.id, page: PAGES, documentId: fifth }]);

    const sent = await call<EnvelopeBody & { signers: { signingUrl?: string | null }[] }>('POST', `/v1/envelopes/${draft.body.id}/send`, { token });
    expect(sent.status).toBe(200);
    const context = await signing<{ documents: { id: string; pageCount: number; pages: unknown[] }[]; fields: { page: number; documentId: string }[] }>('GET', tokenOf(sent.body.signers[0]?.signingUrl));
    expect(context.status).toBe(200);
    expect(context.body.documents.map((d) => [d.id, d.pageCount, d.pages.length])).toEqual(uploads.map((id) => [id, PAGES, PAGES]));
    expect(context.body.fields).toMatchObject([{ page: PAGES, documentId: fifth }]);
  }, 300_000);
});
