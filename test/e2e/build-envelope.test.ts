import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectErrorShape, newApp } from '#test/support/api.ts';
import { readyDraft, signer, type EnvelopeBody } from '#test/support/envelopes.ts';
import { makePdf, PNG_1X1 } from '#test/support/pdfs.ts';

let token: string;
beforeAll(async () => { token = (await newApp('build')).token; });

const pdfBody = (bytes: Uint8Array) => ({ raw: { bytes, contentType: 'application/octet-stream' } });

async function jsonDraft(): Promise<EnvelopeBody> {
  const res = await call<EnvelopeBody>('POST', '/v1/envelopes', { token, json: { tenantId: 'steps', signers: [signer('ana@example.com')] } });
  return res.body;
}

describe('JSON create: building an envelope in steps', () => {
  it('uploads the PDF, adds a signer and fields (prefixed ids accepted), and sends', async () => {
    const draft = await jsonDraft();
    const pdf = await makePdf({ pages: 2, size: [612, 792] });
    const upload = await call<{ documentId: string; sha256: string; pageCount: number }>('POST', `/v1/envelopes/${draft.id}/document`, { token, ...pdfBody(pdf) });
    expect(upload.status).toBe(201);
    expect(upload.body).toMatchObject({ sha256: createHash('sha256').update(pdf).digest('hex'), pageCount: 2 });

    const added = await call<{ id: string; status: string; routingOrder: number; authMethod: string }>('POST', `/v1/envelopes/env_${draft.id}/signers`, {
      token, json: { name: 'Ben', email: 'ben@example.com' },
    });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ status: 'pending', routingOrder: 1, authMethod: 'email_otp' });

    const ana = draft.signers[0]?.id ?? '';
    const field = await call('POST', `/v1/envelopes/${draft.id}/fields`, {
      token, json: { documentId: `doc_${upload.body.documentId}`, signerId: `sgn_${ana}`, type: 'signature', page: 2, x: 10, y: 10, w: 100, h: 30, required: true },
    });
    expect(field.status).toBe(201);
    expect(field.body).toMatchObject({ signerId: ana, documentId: upload.body.documentId, page: 2, origin: 'bottom-left', required: true });
    const topLeft = await call('POST', `/v1/envelopes/${draft.id}/fields`, {
      token, json: { signerId: added.body.id, type: 'date', page: 1, x: 10, y: 10, w: 100, h: 20, origin: 'top-left' },
    });
    expect(topLeft.body).toMatchObject({ origin: 'top-left', documentId: upload.body.documentId, required: true });

    const sent = await call<EnvelopeBody>('POST', `/v1/envelopes/${draft.id}/send`, { token });
    expect(sent.status).toBe(200);
    expect(sent.body.status).toBe('sent');

    const late = await call('POST', `/v1/envelopes/${draft.id}/signers`, { token, json: { name: 'Cy', email: 'cy@example.com' } });
    expect(late.status).toBe(400);
    expectErrorShape(late.body, 'invalid_state', 400);
    expect((await call('POST', `/v1/envelopes/${draft.id}/fields`, { token, json: { signerId: ana, type: 'text', page: 1, x: 1, y: 1, w: 10, h: 10 } })).status).toBe(400);
    expect((await call('POST', `/v1/envelopes/${draft.id}/document`, { token, ...pdfBody(pdf) })).status).toBe(400);
  });

  it('checks field placement against the document (decision 3), naming the attribute', async () => {
    const draft = await jsonDraft();
    await call('POST', `/v1/envelopes/${draft.id}/document`, { token, ...pdfBody(await makePdf({ size: [612, 792] })) });
    const ana = draft.signers[0]?.id ?? '';
    const cases: [Record<string, unknown>, string][] = [
      [{ signerId: ana, type: 'text', page: 2, x: 1, y: 1, w: 10, h: 10 }, 'page'],
      [{ signerId: ana, type: 'text', page: 1, x: 600, y: 1, w: 50, h: 10 }, 'x'],
      [{ signerId: ana, type: 'text', page: 1, x: 1, y: 1, w: -5, h: 10 }, 'w'],
      [{ signerId: '0190f5d2-0000-7000-8000-000000000000', type: 'text', page: 1, x: 1, y: 1, w: 10, h: 10 }, 'signerId'],
      [{ signerId: `env_${ana}`, type: 'text', page: 1, x: 1, y: 1, w: 10, h: 10 }, 'signerId'],
      [{ signerId: ana, documentId: '0190f5d2-0000-7000-8000-000000000000', type: 'text', page: 1, x: 1, y: 1, w: 10, h: 10 }, 'documentId'],
      [{ signerId: ana, type: 'text', page: 1, x: 'left', y: 1, w: 10, h: 10 }, 'x'],
    ];
    for (const [body, path] of cases) {
      const res = await call('POST', `/v1/envelopes/${draft.id}/fields`, { token, json: body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys((res.body as { errors: object }).errors)).toContain(path);
    }
  });

  it('refuses a bad upload with 400 and keeps the envelope unchanged', async () => {
    const draft = await jsonDraft();
    const res = await call('POST', `/v1/envelopes/${draft.id}/document`, { token, ...pdfBody(PNG_1X1) });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message: expect.stringMatching(/not a PDF/) as unknown });
    const empty = await call('POST', `/v1/envelopes/${draft.id}/document`, { token, raw: { bytes: new Uint8Array(0), contentType: 'application/octet-stream' } });
    expect(empty.status).toBe(400);
    const text = await call('POST', `/v1/envelopes/${draft.id}/document`, { token, raw: { bytes: await makePdf(), contentType: 'text/plain' } });
    expect(text.status).toBe(415);
    expect(text.body).toMatchObject({ error: 'unsupported_media_type' });
    const pdf = await call('POST', `/v1/envelopes/${draft.id}/document`, { token, raw: { bytes: PNG_1X1, contentType: 'application/pdf' } });
    expect(pdf.status).toBe(400); // application/pdf is taken too; these bytes are not a PDF
    const after = await call<EnvelopeBody>('GET', `/v1/envelopes/${draft.id}`, { token });
    expect(after.body.documents).toEqual([]);
  });

  it('attaches fields placed before the upload to the first document, which they must fit; a later upload adds a document (decision 9)', async () => {
    const draft = await jsonDraft();
    await call('POST', `/v1/envelopes/${draft.id}/fields`, { token, json: { signerId: draft.signers[0]?.id, type: 'text', page: 3, x: 1, y: 1, w: 10, h: 10 } });
    const tooShort = await call('POST', `/v1/envelopes/${draft.id}/document`, { token, ...pdfBody(await makePdf({ pages: 1 })) });
    expect(tooShort.status).toBe(400);
    expect(Object.keys((tooShort.body as { errors: object }).errors)).toContain('fields[0].page');
    const first = await makePdf({ pages: 4 });
    const ok = await call<{ documentId: string; order: number }>('POST', `/v1/envelopes/${draft.id}/document`, { token, ...pdfBody(first) });
    expect(ok.status).toBe(201);
    const annex = await call<{ documentId: string; order: number; name: string }>('POST', `/v1/envelopes/${draft.id}/document?filename=annex.pdf`, { token, ...pdfBody(await makePdf({ pages: 1 })) });
    expect(annex.body).toMatchObject({ order: 2, name: 'annex.pdf' });
    const after = await call<EnvelopeBody>('GET', `/v1/envelopes/${draft.id}`, { token });
    expect(after.body.documents).toHaveLength(2);
    expect(after.body.fields[0]?.documentId).toBe(ok.body.documentId);
    const download = await call('GET', `/v1/envelopes/${draft.id}/document`, { token });
    expect(Buffer.from(download.bytes).equals(Buffer.from(first))).toBe(true);
  });

  it('answers 404 for another application\'s envelope on every step', async () => {
    const other = await newApp('intruder');
    const draft = await readyDraft(token);
    const ana = draft.signers[0]?.id;
    const attempts = [
      call('POST', `/v1/envelopes/${draft.id}/document`, { token: other.token, ...pdfBody(await makePdf()) }),
      call('POST', `/v1/envelopes/${draft.id}/signers`, { token: other.token, json: { name: 'X', email: 'x@example.com' } }),
      call('POST', `/v1/envelopes/${draft.id}/fields`, { token: other.token, json: { signerId: ana, type: 'text', page: 1, x: 1, y: 1, w: 1, h: 1 } }),
      call('POST', `/v1/envelopes/${draft.id}/send`, { token: other.token }),
      call('POST', `/v1/envelopes/${draft.id}/void`, { token: other.token }),
      call('GET', `/v1/envelopes/${draft.id}/document`, { token: other.token }),
      call('GET', `/v1/envelopes/${draft.id}`, { token: other.token }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(404);
      expectErrorShape(res.body, 'not_found', 404);
    }
  });
});
