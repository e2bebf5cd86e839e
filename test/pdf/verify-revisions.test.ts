/**
 * The verifier takes a signature's revision from the file's one parse (shared/verify/pdf-revisions.ts): it must be
 * what loading that prefix of the file gives, object for object, with the same changes found after it; and where the
 * one parse cannot tell that exactly (an end inside a section, an object pdf-lib had to recover) it must say so.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rgb, StandardFonts, type PDFDocument } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { KeyFileSigner } from '#shared/adapters/local/key-file-signer.ts';
import { signPdf } from '#shared/sealing/pades.ts';
import { appendIncrementalUpdate, openForUpdate } from '#shared/sealing/incremental.ts';
import { loadRevisions } from '#shared/verify/pdf-revisions.ts';
import { changesBetween, loadRevision } from '#shared/verify/verify-pdf.ts';
import { makePdf } from '#test/support/pdfs.ts';

let signed: Uint8Array;
let changed: Uint8Array;
beforeAll(async () => {
  const signer = await KeyFileSigner.open(join(mkdtempSync(join(tmpdir(), 'verify-revisions-')), 'key'));
  signed = await signPdf(await makePdf({ pages: 2 }), signer, { signingTime: new Date(), name: 'Test' });
  const { doc, tracker } = await openForUpdate(signed);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.getPage(0).drawText('Amount: 1,000,000', { x: 50, y: 50, size: 12, font, color: rgb(0, 0, 0) });
  changed = appendIncrementalUpdate(signed, doc, tracker);
});

const latin1 = (bytes: Uint8Array) => new TextDecoder('latin1').decode(bytes);
/** Where each revision of `bytes` ends: after each %%EOF and its end of line. */
const revisionEnds = (bytes: Uint8Array) => [...latin1(bytes).matchAll(/%%EOF(\r\n|\r|\n)?/g)].map((m) => m.index + m[0].length);
const objects = (doc: PDFDocument) => doc.context.enumerateIndirectObjects().map(([ref, object]) => `${ref.toString()} ${object.toString()}`);
const trailer = (doc: PDFDocument) => Object.entries(doc.context.trailerInfo).map(([key, value]) => `${key} ${String(value)}`);

describe('a revision from the one parse', () => {
  it('is the document loading that prefix gives, at every revision of a signed and then changed file', async () => {
    const parse = await loadRevisions(changed);
    const ends = revisionEnds(changed);
    expect(ends.length).toBeGreaterThanOrEqual(3);
    for (const end of ends) {
      const view = parse.at(end);
      const prefix = await loadRevision(changed.subarray(0, end));
      expect(view, `revision ending at ${String(end)}`).not.toBeNull();
      expect(objects(view!)).toEqual(objects(prefix));
      expect(trailer(view!)).toEqual(trailer(prefix));
    }
    expect(parse.at(changed.length)).toBe(parse.final);
  });

  it('finds the same changes after a signature as the prefix loaded on its own', async () => {
    const parse = await loadRevisions(changed);
    const signedEnd = signed.length;
    const found = changesBetween(parse.at(signedEnd)!, parse.final, () => false);
    expect(found).toEqual(changesBetween(await loadRevision(changed.subarray(0, signedEnd)), parse.final, () => false));
    expect(found.map((m) => m.kind)).toEqual(expect.arrayContaining(['page', 'content']));
  });

  it('is not told for an end inside a section of the file: the prefix is loaded then', async () => {
    const parse = await loadRevisions(changed);
    expect(parse.at(signed.length - 3)).toBeNull();
    expect(parse.at(signed.length + 10)).toBeNull();
  });

  it('is not told when pdf-lib had to recover an object: a prefix could read it otherwise', async () => {
    const first = '%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Kids [ 1 2 >>\nendobj\ntrailer\n<< /Root 1 0 R >>\nstartxref\n0\n%%EOF\n';
    const second = '3 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 3 0 R >>\nstartxref\n0\n%%EOF\n';
    const bytes = new TextEncoder().encode(first + second);
    const parse = await loadRevisions(bytes);
    expect(parse.at(first.length)).toBeNull();
    expect(parse.at(bytes.length)).toBe(parse.final);
  });

  it('reads a field\'s signature as the revision had it, though a later update rewrote that dictionary', async () => {
    const sig = (subFilter: string) => `<< /Type /Sig /SubFilter /${subFilter} /ByteRange [0 1 2 3] /Contents <00> >>`;
    const end = '\ntrailer\n<< /Root 1 0 R >>\nstartxref\n0\n%%EOF\n';
    const first = `%PDF-1.7\n1 0 obj\n<< /Type /Catalog /AcroForm << /Fields [4 0 R] >> >>\nendobj\n4 0 obj\n<< /FT /Sig /T (A) /V 5 0 R >>\nendobj\n5 0 obj\n${sig('ETSI.CAdES.detached')}\nendobj${end}`;
    const second = `6 0 obj\n<< /FT /Sig /T (B) /V 7 0 R >>\nendobj\n7 0 obj\n${sig('ETSI.CAdES.detached')}\nendobj\n1 0 obj\n<< /Type /Catalog /AcroForm << /Fields [4 0 R 6 0 R] >> >>\nendobj${end}`;
    const third = `7 0 obj\n${sig('ETSI.RFC3161')}\nendobj${end}`;
    const bytes = new TextEncoder().encode(first + second + third);
    const parse = await loadRevisions(bytes);
    const [one, two] = [first.length, first.length + second.length];
    const alone = changesBetween(await loadRevision(bytes.subarray(0, one)), await loadRevision(bytes.subarray(0, two)), () => false);
    expect(alone.find((m) => m.object === '7 0 R')).toMatchObject({ kind: 'signature', description: 'signature added' });
    expect(changesBetween(parse.at(one)!, parse.at(two)!, () => false)).toEqual(alone);
  });
});
