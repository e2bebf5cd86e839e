import { crc32 } from 'node:zlib';
import { PDFDocument } from 'pdf-lib';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { createEnvelope, type NewEnvelopeInput } from '#shared/envelopes/envelope.ts';
import type { Envelope, FieldType, Signer } from '#shared/kernel/model.ts';
import { checkSubmission, MAX_IMAGE_BYTES, type CheckedValue, type SubmittedField } from '#shared/signing/submission.ts';
import { errorsOf, letterDocument, signerInput, testCtx, withPages } from '#test/support/domain.ts';
import { PNG_1X1 } from '#test/support/pdfs.ts';

const SIGNING_DATE = '2026-01-01';
const png = Buffer.from(PNG_1X1).toString('base64');

type FieldSpec = [signerIndex: number, type: FieldType, required: boolean];

/** Signer 0 has one field of each kind (and an optional text); signer 1 has a signature. */
const LAYOUT: FieldSpec[] = [
  [0, 'signature', true], // 0
  [0, 'initial', true], // 1
  [0, 'date', true], // 2
  [0, 'text', true], // 3
  [0, 'text', false], // 4
  [0, 'checkbox', true], // 5
  [1, 'signature', true], // 6
];

function envelopeWith(layout: readonly FieldSpec[] = LAYOUT): Envelope {
  return createEnvelope({
    id: '0190f5d2-0000-7000-8000-0000000000cc', appId: 'app-1', tenantId: 'acme', subject: null, createdBy: null, expiresInDays: 7,
    fieldOrigin: 'bottom-left', signers: [signerInput('a@example.com'), signerInput('b@example.com')],
    fields: layout.map(([signerIndex, type, required], i): NewEnvelopeInput['fields'][number] => ({
      signerIndex, type, required, page: 1, x: 10 + (i % 20), y: 10 + Math.floor(i / 20) * 2, w: 20, h: 2, origin: 'bottom-left',
    })),
    ...withPages(letterDocument()),
  }, testCtx()).after;
}

const envelope = envelopeWith();
const signerA: Signer = envelope.signers[0]!;
const idOf = (i: number) => envelope.fields[i]!.id;

/** A valid value for every field of signer A that takes one (the date is left to the service). */
const complete = (): SubmittedField[] => [
  { fieldId: idOf(0), signatureImageBase64: png },
  { fieldId: idOf(1), textValue: 'AB' },
  { fieldId: idOf(3), textValue: 'ACME Corp.' },
  { fieldId: idOf(5), textValue: 'true' },
];

/** checkSubmission for signer A with `complete()` where `replace` swaps in values by field index. */
function check(replace: Record<number, Omit<SubmittedField, 'fieldId'>> = {}, fontLabel: string | null = 'Caveat'): CheckedValue[] {
  const submitted = complete().map((s) => {
    const index = envelope.fields.findIndex((f) => f.id === s.fieldId);
    return replace[index] ? { fieldId: s.fieldId, ...replace[index] } : s;
  });
  return checkSubmission(envelope, signerA, submitted, fontLabel, SIGNING_DATE);
}

/** The field errors of a refused submission. */

const valueOf = (values: readonly CheckedValue[], i: number) => values.find((v) => v.fieldId === idOf(i));

describe('a complete submission', () => {
  it('gives one value per field: the drawn signature decoded with its size, the rest inline, the date filled in', () => {
    const values = check();
    expect(values.map((v) => [v.fieldId, v.kind])).toEqual([
      [idOf(0), 'png'], [idOf(1), 'typed'], [idOf(3), 'text'], [idOf(5), 'checkbox'], [idOf(2), 'date'],
    ]);
    expect(valueOf(values, 0)).toMatchObject({ type: 'signature', kind: 'png', width: 1, height: 1 });
    // Stored as decoded: the same pixels, as a plain 8-bit RGBA PNG (IHDR bit depth 8, colour type 6)
    const stored = (valueOf(values, 0) as { bytes: Buffer }).bytes;
    expect([stored[24], stored[25]]).toEqual([8, 6]);
    expect(PNG.sync.read(stored).data).toEqual(PNG.sync.read(Buffer.from(PNG_1X1)).data);
    expect(valueOf(values, 1)).toEqual({ fieldId: idOf(1), type: 'initial', kind: 'typed', text: 'AB', fontLabel: 'Caveat' });
    expect(valueOf(values, 3)).toEqual({ fieldId: idOf(3), type: 'text', kind: 'text', text: 'ACME Corp.' });
    expect(valueOf(values, 5)).toEqual({ fieldId: idOf(5), type: 'checkbox', kind: 'checkbox', checked: true });
  });
});

/** A PNG tEXt chunk, CRC included. */
function textChunk(key: string, value: string): Buffer {
  const data = Buffer.from(`${key}\0${value}`, 'latin1');
  const typeAndData = Buffer.concat([Buffer.from('tEXt'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

describe('drawn signatures are kept as decoded', () => {
  it('re-encodes any PNG the check accepts as 8-bit RGBA without its metadata, which the seal embeds as it is', async () => {
    const source = new PNG({ width: 3, height: 2 });
    for (let i = 0; i < source.data.length; i++) source.data[i] = (i * 37) % 256;
    const sixteenBitGreyAlpha = PNG.sync.write(source, { colorType: 4, bitDepth: 16 } as never);
    const withText = Buffer.concat([sixteenBitGreyAlpha.subarray(0, 33), textChunk('Author', 'someone@example.com'), sixteenBitGreyAlpha.subarray(33)]);
    const stored = valueOf(check({ 0: { signatureImageBase64: withText.toString('base64') } }), 0) as { bytes: Buffer; width: number; height: number };
    expect([stored.width, stored.height, stored.bytes[24], stored.bytes[25]]).toEqual([3, 2, 8, 6]);
    expect(stored.bytes.includes(Buffer.from('someone@example.com'))).toBe(false);
    const doc = await PDFDocument.create();
    doc.addPage().drawImage(await doc.embedPng(stored.bytes), { x: 0, y: 0, width: 30, height: 20 });
    expect((await doc.save()).length).toBeGreaterThan(0);
  });
});

describe('required fields', () => {
  it('every missing required field is named under `fields`; the date is never missing', () => {
    const errors = errorsOf(() => checkSubmission(envelope, signerA, [], 'Caveat', SIGNING_DATE));
    expect(Object.keys(errors)).toEqual(['fields']);
    expect(errors.fields).toHaveLength(4);
    for (const i of [0, 1, 3, 5]) expect(errors.fields?.some((m) => m.includes(idOf(i))), `field ${String(i)}`).toBe(true);
    expect(errors.fields?.some((m) => m.includes(idOf(2)))).toBe(false);
  });

  it("another signer's required fields are not asked of this signer", () => {
    expect(check().some((v) => v.fieldId === idOf(6))).toBe(false);
  });

  it('a required text of only spaces is refused as missing', () => {
    expect(errorsOf(() => check({ 3: { textValue: '   ' } }))).toEqual({ 'fields[2]': ['is required'] });
  });

  it('an optional text left empty or not submitted is omitted, not an error', () => {
    expect(valueOf(check(), 4)).toBeUndefined();
    const values = checkSubmission(envelope, signerA, [...complete(), { fieldId: idOf(4), textValue: '' }], 'Caveat', SIGNING_DATE);
    expect(valueOf(values, 4)).toBeUndefined();
    const nulled = checkSubmission(envelope, signerA, [...complete(), { fieldId: idOf(4), textValue: null }], 'Caveat', SIGNING_DATE);
    expect(valueOf(nulled, 4)).toBeUndefined();
    const filled = checkSubmission(envelope, signerA, [...complete(), { fieldId: idOf(4), textValue: 'note' }], 'Caveat', SIGNING_DATE);
    expect(valueOf(filled, 4)).toEqual({ fieldId: idOf(4), type: 'text', kind: 'text', text: 'note' });
  });
});

describe('date fields (decision 16)', () => {
  it('are filled by the service with the signing date when not submitted', () => {
    expect(valueOf(check(), 2)).toEqual({ fieldId: idOf(2), type: 'date', kind: 'date', date: SIGNING_DATE });
  });

  it('ignore a submitted value and take the signing date', () => {
    const values = checkSubmission(envelope, signerA, [...complete(), { fieldId: idOf(2), textValue: '1999-12-31' }], 'Caveat', SIGNING_DATE);
    expect(values.filter((v) => v.fieldId === idOf(2))).toEqual([{ fieldId: idOf(2), type: 'date', kind: 'date', date: SIGNING_DATE }]);
  });
});

describe('drawn signatures (PNG)', () => {
  it('a valid PNG passes, also behind a data: URL prefix and with line breaks in the base64', () => {
    expect(valueOf(check({ 0: { signatureImageBase64: `data:image/png;base64,${png}` } }), 0)).toMatchObject({ kind: 'png', width: 1, height: 1 });
    const wrapped = png.replace(/(.{16})/g, '$1\n');
    expect(valueOf(check({ 0: { signatureImageBase64: wrapped } }), 0)).toMatchObject({ kind: 'png', width: 1, height: 1 });
  });

  it('keeps whether the image was drawn or uploaded when the client says so, for the audit certificate', () => {
    expect(valueOf(check({ 0: { signatureImageBase64: png, signatureSource: 'uploaded' } }), 0)).toMatchObject({ kind: 'png', source: 'uploaded' });
    expect(valueOf(check({ 0: { signatureImageBase64: png } }), 0)).not.toHaveProperty('source');
  });

  it('an initial takes a PNG like a signature', () => {
    expect(valueOf(check({ 1: { signatureImageBase64: png } }), 1)).toMatchObject({ type: 'initial', kind: 'png' });
  });

  it('garbage that is not base64 is refused', () => {
    expect(errorsOf(() => check({ 0: { signatureImageBase64: 'not base64 at all!!' } }))).toEqual({ 'fields[0]': ['is not valid base64'] });
    expect(errorsOf(() => check({ 0: { signatureImageBase64: 'abc' } }))).toEqual({ 'fields[0]': ['is not valid base64'] });
  });

  it('base64 of bytes that are not a PNG is refused', () => {
    const jpegish = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70, 0, 1]).toString('base64');
    expect(errorsOf(() => check({ 0: { signatureImageBase64: jpegish } }))).toEqual({ 'fields[0]': ['is not a PNG image'] });
    const truncated = Buffer.from(PNG_1X1.slice(0, 30)).toString('base64');
    expect(errorsOf(() => check({ 0: { signatureImageBase64: truncated } }))).toEqual({ 'fields[0]': ['is not a PNG image'] });
  });

  it('an image over 1 MB decoded is refused before it is parsed; exactly 1 MB is within the limit', () => {
    const over = Buffer.alloc(MAX_IMAGE_BYTES + 1).toString('base64');
    expect(errorsOf(() => check({ 0: { signatureImageBase64: over } }))).toEqual({ 'fields[0]': ['the image is larger than 1 MB'] });
    const exactly = Buffer.alloc(MAX_IMAGE_BYTES).toString('base64');
    expect(errorsOf(() => check({ 0: { signatureImageBase64: exactly } }))).toEqual({ 'fields[0]': ['is not a PNG image'] });
  });
});

describe('typed signatures', () => {
  it('take textValue with the request fontLabel, trimmed', () => {
    expect(valueOf(check({ 0: { textValue: '  Ann Smith  ' } }), 0)).toEqual({ fieldId: idOf(0), type: 'signature', kind: 'typed', text: 'Ann Smith', fontLabel: 'Caveat' });
  });

  it('need the request fontLabel', () => {
    expect(errorsOf(() => check({ 0: { textValue: 'Ann Smith' } }, null))).toHaveProperty(['fields[0]']);
    expect(errorsOf(() => check({ 0: { textValue: 'Ann Smith' } }, ''))).toHaveProperty(['fields[0]']);
  });

  it('need a textValue when there is no image', () => {
    expect(errorsOf(() => check({ 0: {} }))).toHaveProperty(['fields[0]']);
    expect(errorsOf(() => check({ 0: { textValue: '   ', signatureImageBase64: null } }))).toHaveProperty(['fields[0]']);
  });

  it('have at most 100 characters', () => {
    expect(valueOf(check({ 0: { textValue: 'x'.repeat(100) } }), 0)).toMatchObject({ kind: 'typed' });
    expect(errorsOf(() => check({ 0: { textValue: 'x'.repeat(101) } }))).toEqual({ 'fields[0]': ['a typed signature has at most 100 characters'] });
  });
});

describe('text and checkbox values', () => {
  it('a text has at most 1,000 characters', () => {
    expect(valueOf(check({ 3: { textValue: 'x'.repeat(1000) } }), 3)).toMatchObject({ kind: 'text' });
    expect(errorsOf(() => check({ 3: { textValue: 'x'.repeat(1001) } }))).toEqual({ 'fields[2]': ['has at most 1000 characters'] });
  });

  it('a checkbox takes only "true" or "false"', () => {
    expect(valueOf(check({ 5: { textValue: 'false' } }), 5)).toEqual({ fieldId: idOf(5), type: 'checkbox', kind: 'checkbox', checked: false });
    for (const textValue of ['TRUE', 'yes', '1', ' true']) {
      expect(errorsOf(() => check({ 5: { textValue } })), textValue).toEqual({ 'fields[3]': ['must be "true" or "false"'] });
    }
    for (const textValue of ['', null]) {
      expect(errorsOf(() => check({ 5: { textValue } })), String(textValue)).toEqual({ 'fields[3]': ['is required'] });
    }
  });

  it('refuses a small PNG that declares a huge canvas, before decompressing it', () => {
    const bomb = Buffer.from(PNG_1X1);
    bomb.writeUInt32BE(30_000, 16);
    bomb.writeUInt32BE(30_000, 20);
    const started = Date.now();
    const errors = errorsOf(() => check({ 0: { signatureImageBase64: bomb.toString('base64') } }));
    expect(Object.values(errors).flat().join(' ')).toMatch(/too large/);
    expect(Date.now() - started).toBeLessThan(5000); // inflating 30,000 x 30,000 RGBA would take far longer and 3.6 GB
  });

  it('the submitted text is limited to 200,000 characters in total', () => {
    const many = envelopeWith(Array.from({ length: 201 }, (): FieldSpec => [0, 'text', true]));
    const signer = many.signers[0]!;
    // 199 texts of 1,000 characters, plus `first` and `last`
    const texts = (first: number, last: number) => many.fields.map((f, i) => ({ fieldId: f.id, textValue: 'x'.repeat(i === 0 ? first : i === 200 ? last : 1000) }));
    expect(errorsOf(() => checkSubmission(many, signer, texts(1000, 1), null, SIGNING_DATE))).toEqual({ fields: ['the submitted text is too long in total'] });
    expect(checkSubmission(many, signer, texts(999, 1), null, SIGNING_DATE)).toHaveLength(201);
  });
});

describe('which fields a signer may submit', () => {
  it("another signer's field or an unknown id is refused at fields[i].fieldId", () => {
    const errors = errorsOf(() => checkSubmission(envelope, signerA, [
      ...complete(), { fieldId: idOf(6), signatureImageBase64: png }, { fieldId: '0190f5d2-0000-7000-8000-00000000dead', textValue: 'x' },
    ], 'Caveat', SIGNING_DATE));
    expect(errors).toEqual({ 'fields[4].fieldId': ['is not one of your fields'], 'fields[5].fieldId': ['is not one of your fields'] });
  });

  it('a field submitted twice is refused at the second occurrence', () => {
    const errors = errorsOf(() => checkSubmission(envelope, signerA, [...complete(), { fieldId: idOf(3), textValue: 'again' }], 'Caveat', SIGNING_DATE));
    expect(errors).toEqual({ 'fields[4].fieldId': ['is submitted twice'] });
  });

  it('every problem is reported at once, each at its own path', () => {
    const errors = errorsOf(() => checkSubmission(envelope, signerA, [
      { fieldId: idOf(0), signatureImageBase64: 'garbage!' },
      { fieldId: idOf(5), textValue: 'maybe' },
      { fieldId: idOf(6), textValue: 'x' },
    ], 'Caveat', SIGNING_DATE));
    expect(Object.keys(errors).sort()).toEqual(['fields', 'fields[0]', 'fields[1]', 'fields[2].fieldId']);
    expect(errors.fields).toHaveLength(2); // the initial and the required text
  });
});
