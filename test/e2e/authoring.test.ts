/**
 * Authoring (decision 9, decision 17) over HTTP: a contract and two annexes in one envelope, fields placed by anchors,
 * labelled, prefilled and read-only, from create to sealed; a later signer sees what the earlier one entered.
 */
import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, newApp, outboxFor } from '#test/support/api.ts';
import { signer, type EnvelopeBody } from '#test/support/envelopes.ts';
import { makePdf } from '#test/support/pdfs.ts';
import { passGates, settle, signing, tokenOf, type ContextBody } from '#test/support/signing.ts';
import { pdfsig, pdftotext, qpdfCheck, tempPdf } from '#test/support/validators.ts';

let token: string;
beforeAll(async () => { token = (await newApp('authoring')).token; });

const unique = (name: string) => `${name}.${String(Date.now())}.${String(Math.random()).slice(2, 8)}@example.com`;

/** A generated contract the way integrators make them: visible text, and anchors printed in white. */
async function contract(title: string, anchors: { text: string; page: number; x: number; y: number }[], pages = 2): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < pages; i++) {
    const page = doc.addPage([612, 792]);
    page.drawText(`${title}, page ${String(i + 1)}`, { x: 72, y: 720, size: 16, font });
  }
  for (const anchor of anchors) doc.getPage(anchor.page - 1).drawText(anchor.text, { x: anchor.x, y: anchor.y, size: 10, font, color: rgb(1, 1, 1) });
  return doc.save();
}

function multipart(data: unknown, files: { name: string; bytes: Uint8Array }[]): FormData {
  const form = new FormData();
  form.append('data', JSON.stringify(data));
  for (const file of files) form.append('file', new Blob([file.bytes], { type: 'application/pdf' }), file.name);
  return form;
}

describe('a contract and its annexes in one envelope', () => {
  it('places fields by anchor with labels, prefills and read-only values; each document seals with what each signer saw', async () => {
    const [ana, ben] = [unique('ana'), unique('ben')];
    const main = await contract('Supply agreement', [{ text: '/sig1/', page: 2, x: 100, y: 150 }, { text: '/sig2/', page: 2, x: 350, y: 150 }]);
    const annexA = await contract('Annex A: prices', [{ text: '/ini1/', page: 1, x: 480, y: 60 }, { text: '/ini1/', page: 2, x: 480, y: 60 }]);
    const annexB = await makePdf({ pages: 1, size: [612, 792] });
    const form = multipart({
      tenantId: 'authoring', subject: 'Supply agreement',
      signers: [signer(ana, 1, { authMethod: 'none', name: 'Ana Silva' }), signer(ben, 2, { authMethod: 'none', name: 'Ben Okafor' })],
      fields: [
        { signerIndex: 0, type: 'signature', anchor: { text: '/sig1/', offsetY: 12 }, w: 180, h: 40, label: 'Supplier signature' },
        { signerIndex: 1, type: 'signature', anchor: { text: '/sig2/', offsetY: 12 }, w: 180, h: 40, label: 'Buyer signature' },
        { signerIndex: 0, documentIndex: 1, type: 'initial', anchor: { text: '/ini1/' }, w: 60, h: 30, label: 'Initials' },
        { signerIndex: 0, documentIndex: 2, type: 'text', page: 1, x: 72, y: 500, w: 250, h: 20, label: 'Company name', value: 'ACME Supplies' },
        { signerIndex: 1, documentIndex: 2, type: 'text', page: 1, x: 72, y: 450, w: 250, h: 20, label: 'Contract number', value: 'C-2026-0042', readOnly: true },
        { signerIndex: 1, documentIndex: 2, type: 'text', page: 1, x: 72, y: 400, w: 250, h: 20, label: 'Buyer reference' },
        { signerIndex: 0, documentIndex: 0, type: 'text', anchor: { text: '/missing/', ignoreIfMissing: true }, w: 100, h: 20 },
      ],
    }, [{ name: 'agreement.pdf', bytes: main }, { name: 'annex-a.pdf', bytes: annexA }, { name: 'annex-b.pdf', bytes: annexB }]);
    const created = await call<EnvelopeBody & { fields: { id: string; label: string | null; page: number; x: number; y: number; documentId: string; readOnly: boolean; required: boolean }[]; documents: { id: string; name: string; order: number }[] }>('POST', '/v1/envelopes', { token, form });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const docs = created.body.documents;
    expect(docs.map((d) => [d.name, d.order])).toEqual([['agreement.pdf', 1], ['annex-a.pdf', 2], ['annex-b.pdf', 3]]);
    expect(created.body.fields).toHaveLength(7); // two initials from one anchor, none for the missing one
    const sig1 = created.body.fields.find((f) => f.label === 'Supplier signature');
    expect(sig1).toMatchObject({ documentId: docs[0]?.id, page: 2, x: 100, y: 162 });
    expect(created.body.fields.filter((f) => f.label === 'Initials').map((f) => f.documentId)).toEqual([docs[1]?.id, docs[1]?.id]);
    expect(created.body.fields.find((f) => f.label === 'Contract number')).toMatchObject({ readOnly: true, required: false });

    const missing = await call('POST', `/v1/envelopes/${created.body.id}/fields`, { token, json: { signerId: created.body.signers[0]?.id, documentId: docs[0]?.id, type: 'text', anchor: { text: '/nowhere/' }, w: 50, h: 20 } });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ errors: { 'anchor': [expect.stringContaining('/nowhere/') as unknown] } });

    const sent = await call<EnvelopeBody>('POST', `/v1/envelopes/${created.body.id}/send`, { token });
    expect(sent.status).toBe(200);
    const anaToken = tokenOf(sent.body.signers[0]?.signingUrl);
    await passGates(anaToken, null);
    const anaContext = (await signing<ContextBody & { documents: { id: string; name: string }[]; fields: { id: string; label: string | null; value: string | null; documentId: string; type: string }[] }>('GET', anaToken)).body;
    expect(anaContext.documents.map((d) => d.name)).toEqual(['agreement.pdf', 'annex-a.pdf', 'annex-b.pdf']);
    expect(anaContext.fields.map((f) => f.label).sort()).toEqual(['Company name', 'Initials', 'Initials', 'Supplier signature']);
    expect((await signing('GET', anaToken, `/document?documentId=${docs[1]?.id ?? ''}`)).status).toBe(200);
    const anaValues = anaContext.fields.filter((f) => f.type !== 'text').map((f) => ({ fieldId: f.id, textValue: f.type === 'initial' ? 'AS' : 'Ana Silva' }));
    expect((await signing('POST', anaToken, '/sign', { fields: anaValues, fontLabel: 'Caveat' })).status).toBe(200); // the prefill stands for the company

    await settle();
    const benLink = /https?:\/\/\S+\/sign\/\S+/.exec((await outboxFor(ben)).at(-1)?.text ?? '')?.[0];
    const benToken = tokenOf(benLink);
    await passGates(benToken, null);
    const benContext = (await signing<ContextBody & { fields: { id: string; label: string | null; readOnly: boolean; type: string }[]; completedFields: { label: string | null; textValue: string | null; signerName: string }[] }>('GET', benToken)).body;
    expect(benContext.completedFields.map((f) => [f.label, f.textValue, f.signerName]).sort()).toEqual([
      ['Company name', 'ACME Supplies', 'Ana Silva'], ['Initials', 'AS', 'Ana Silva'], ['Initials', 'AS', 'Ana Silva'], ['Supplier signature', 'Ana Silva', 'Ana Silva'],
    ]);
    const readOnly = benContext.fields.find((f) => f.readOnly);
    const refused = await signing('POST', benToken, '/sign', { fields: [{ fieldId: readOnly?.id, textValue: 'changed' }] });
    expect(refused.status).toBe(400);
    const benValues = benContext.fields.filter((f) => !f.readOnly).map((f) => ({ fieldId: f.id, textValue: f.type === 'text' ? 'PO-7781' : 'Ben Okafor' }));
    expect((await signing('POST', benToken, '/sign', { fields: benValues, fontLabel: 'Caveat' })).status).toBe(200);

    await settle();
    const done = (await call<Omit<EnvelopeBody, 'documents'> & { documents: { id: string; kind: string; name: string; sourceDocumentId: string | null; sha256: string }[] }>('GET', `/v1/envelopes/${created.body.id}`, { token })).body;
    expect(done.status).toBe('completed');
    const sealed = done.documents.filter((d) => d.kind === 'sealed');
    expect(sealed.map((d) => [d.name, d.sourceDocumentId])).toEqual(docs.map((d) => [d.name, d.id]));
    expect(done.documentHashFinal).toBe(sealed[0]?.sha256);
    const texts: string[] = [];
    for (const document of sealed) {
      const res = await call('GET', `/v1/envelopes/${done.id}/document?kind=sealed&documentId=${document.id}`, { token });
      expect(res.status).toBe(200);
      const file = tempPdf(res.bytes);
      expect(pdfsig(file)).toContain('Signature is Valid.');
      expect(qpdfCheck(file)).toMatchObject({ ok: true });
      texts.push(pdftotext(file));
    }
    expect(texts[2]).toContain('ACME Supplies');
    expect(texts[2]).toContain('C-2026-0042');
    expect(texts[2]).toContain('PO-7781');
    for (const text of texts) for (const name of ['agreement.pdf', 'annex-a.pdf', 'annex-b.pdf']) expect(text).toContain(name);
    const byOriginal = await call('GET', `/v1/envelopes/${done.id}/document?kind=sealed&documentId=${docs[2]?.id ?? ''}`, { token });
    expect(byOriginal.headers.get('x-document-sha256')).toBe(sealed[2]?.sha256);

    const mail = (await outboxFor(ana)).find((m) => m.subject === 'Completed: Supply agreement') as { attachments?: { filename: string }[] } | undefined;
    expect(mail?.attachments?.map((a) => a.filename)).toEqual(['Supply agreement - agreement.pdf', 'Supply agreement - annex-a.pdf', 'Supply agreement - annex-b.pdf']);
  }, 120_000);

  it('adds and removes documents while draft, keeping the order contiguous and clients of one document unchanged', async () => {
    const draft = await call<EnvelopeBody>('POST', '/v1/envelopes', { token, json: { tenantId: 'authoring', signers: [signer(unique('d'))] } });
    const upload = (name: string | null) => call<{ documentId: string; name: string; order: number }>('POST', `/v1/envelopes/${draft.body.id}/document${name ? `?filename=${name}` : ''}`, { token, raw: { bytes: new Uint8Array(0), contentType: 'application/octet-stream' } });
    expect((await upload(null)).status).toBe(400);
    const add = async (name: string | null) => call<{ documentId: string; name: string; order: number }>('POST', `/v1/envelopes/${draft.body.id}/document${name ? `?filename=${encodeURIComponent(name)}` : ''}`, { token, raw: { bytes: await makePdf(), contentType: 'application/octet-stream' } });
    const first = await add(null);
    const second = await add('terms.pdf');
    const third = await add(null);
    expect([first.body, second.body, third.body].map((d) => [d.name, d.order])).toEqual([['document-1.pdf', 1], ['terms.pdf', 2], ['document-3.pdf', 3]]);
    const field = await call('POST', `/v1/envelopes/${draft.body.id}/fields`, { token, json: { signerId: draft.body.signers[0]?.id, type: 'signature', page: 1, x: 72, y: 72, w: 100, h: 30 } });
    expect(field.status).toBe(400); // several documents: the field must name its own
    const onSecond = await call('POST', `/v1/envelopes/${draft.body.id}/fields`, { token, json: { signerId: draft.body.signers[0]?.id, documentId: second.body.documentId, type: 'signature', page: 1, x: 72, y: 72, w: 100, h: 30 } });
    expect(onSecond.status).toBe(201);
    expect((await call('DELETE', `/v1/envelopes/${draft.body.id}/documents/${second.body.documentId}`, { token })).status).toBe(204);
    const after = (await call<EnvelopeBody & { documents: { id: string; name: string; order: number }[] }>('GET', `/v1/envelopes/${draft.body.id}`, { token })).body;
    expect(after.documents.map((d) => [d.name, d.order])).toEqual([['document-1.pdf', 1], ['document-3.pdf', 2]]);
    expect(after.fields).toEqual([]);
    expect((await call('DELETE', `/v1/envelopes/${draft.body.id}/documents/${second.body.documentId}`, { token })).status).toBe(404);
    expect((await call('GET', `/v1/envelopes/${draft.body.id}/document`, { token })).headers.get('x-document-sha256')).toMatch(/^[0-9a-f]{64}$/);
  });
});
