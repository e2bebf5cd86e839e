import { PNG } from 'pngjs';
import { ValidationError, type FieldErrors } from '../kernel/errors.ts';
import { describeProblem, textProblem } from '../envelopes/text-validation.ts';
import { hasConditions, shownFields } from './shown-fields.ts';
import type { Attachment, Envelope, Field, Signer } from '../kernel/model.ts';
import { attachmentValue, type AttachmentValue } from '../attachments/attachment-values.ts';

export const MAX_IMAGE_BYTES = 1024 * 1024;
export const MAX_TEXT_CHARS = 1000;
export const MAX_TYPED_SIGNATURE_CHARS = 100;
const MAX_SUBMISSION_TEXT_CHARS = 200_000;

/** A stored field value; images live in the blob store, the rest inline. */
export type FieldValue =
  | { fieldId: string; type: 'signature' | 'initial'; kind: 'image'; blobKey: string; sha256: string; width: number; height: number; source?: ImageSource }
  | { fieldId: string; type: 'signature' | 'initial'; kind: 'typed'; text: string; fontLabel: string }
  | { fieldId: string; type: 'text'; kind: 'text'; text: string }
  | { fieldId: string; type: 'checkbox'; kind: 'checkbox'; checked: boolean }
  | { fieldId: string; type: 'date'; kind: 'date'; date: string }
  | AttachmentValue;

/** Everything one signer submitted, kept as its own item beside the envelope. */
export interface Submission {
  envelopeId: string;
  signerId: string;
  submittedAt: string;
  fontLabel: string | null;
  values: FieldValue[];
}

export interface SubmittedField {
  fieldId: string;
  signatureImageBase64?: string | null;
  textValue?: string | null;
  signatureSource?: ImageSource | null;
  /** An attachment field: the attachment the signer added for it. */
  attachmentId?: string | null;
}

/** How a signature image was made, as the signing client says; absent when it did not say. */
export type ImageSource = 'drawn' | 'uploaded';

/** A checked value; image values carry their decoded PNG until it is stored. */
export type CheckedValue =
  | (Exclude<FieldValue, { kind: 'image' }>)
  | { fieldId: string; type: 'signature' | 'initial'; kind: 'png'; bytes: Buffer; width: number; height: number; source?: ImageSource };

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
/** Decoding is bounded by pixels, not by file size: a tiny PNG can declare a huge canvas. */
const MAX_IMAGE_SIDE = 4096;
const MAX_IMAGE_PIXELS = 8 * 1024 * 1024;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Width and height from the IHDR chunk, read before anything is decompressed. */
function pngDimensions(bytes: Buffer): { width: number; height: number } | undefined {
  if (bytes.length < 24 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE) || bytes.toString('latin1', 12, 16) !== 'IHDR') return undefined;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

function decodePng(raw: string): { bytes: Buffer; width: number; height: number } | string {
  const text = raw.replace(/^data:image\/png;base64,/, '').replace(/\s+/g, '');
  if (!BASE64.test(text) || text.length % 4 !== 0) return 'is not valid base64';
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length > MAX_IMAGE_BYTES) return 'the image is larger than 1 MB';
  const size = pngDimensions(bytes);
  if (!size) return 'is not a PNG image';
  if (size.width > MAX_IMAGE_SIDE || size.height > MAX_IMAGE_SIDE || size.width * size.height > MAX_IMAGE_PIXELS) {
    return `the image is too large (at most ${String(MAX_IMAGE_SIDE)} pixels a side and 8 megapixels)`;
  }
  let png: PNG;
  try {
    png = PNG.sync.read(bytes);
  } catch {
    return 'is not a PNG image';
  }
  // Kept as decoded, re-encoded as plain 8-bit RGBA: the seal (pdf-lib) then embeds exactly what was checked here,
  // never a file one decoder accepts and the other refuses after everyone has signed; metadata chunks go too.
  return { bytes: PNG.sync.write(png, { colorType: 6, bitDepth: 8, inputColorType: 6, inputHasAlpha: true }), width: png.width, height: png.height };
}

function checkSignature(field: Field, input: SubmittedField, fontLabel: string | null): CheckedValue | string {
  const type = field.type as 'signature' | 'initial';
  if (input.signatureImageBase64) {
    const png = decodePng(input.signatureImageBase64);
    const source = input.signatureSource ? { source: input.signatureSource } : {};
    return typeof png === 'string' ? png : { fieldId: field.id, type, kind: 'png', ...png, ...source };
  }
  const text = input.textValue?.trim();
  if (!text) return 'needs signatureImageBase64 (a PNG) or textValue with fontLabel (a typed signature)';
  if (text.length > MAX_TYPED_SIGNATURE_CHARS) return `a typed signature has at most ${String(MAX_TYPED_SIGNATURE_CHARS)} characters`;
  if (!fontLabel) return 'a typed signature needs the request fontLabel';
  return { fieldId: field.id, type, kind: 'typed', text, fontLabel };
}

const isBlank = (input: SubmittedField) => !input.signatureImageBase64 && !input.attachmentId && (input.textValue ?? '').trim() === '';

/** One field's value; null when an optional field is left blank (omitted, like a field not submitted). */
function checkValue(field: Field, input: SubmittedField, fontLabel: string | null, signingDate: string, attachments: readonly Attachment[]): CheckedValue | string | null {
  if (field.type !== 'date' && isBlank(input)) return field.required ? 'is required' : null;
  switch (field.type) {
    case 'signature':
    case 'initial':
      return checkSignature(field, input, fontLabel);
    case 'date':
      return { fieldId: field.id, type: 'date', kind: 'date', date: signingDate }; // filled by the service; a submitted value is ignored
    case 'text': {
      const text = input.textValue ?? '';
      if (text.length > MAX_TEXT_CHARS) return `has at most ${String(MAX_TEXT_CHARS)} characters`;
      if (field.required && text.trim() === '') return 'is required';
      const problem = text === '' ? null : textProblem(field.validation, text);
      if (problem) return `${field.label ? `"${field.label}"` : `text field ${field.id}`} ${describeProblem(problem)}`;
      return text === '' ? null : { fieldId: field.id, type: 'text', kind: 'text', text };
    }
    case 'checkbox':
      if (input.textValue !== 'true' && input.textValue !== 'false') return 'must be "true" or "false"';
      return { fieldId: field.id, type: 'checkbox', kind: 'checkbox', checked: input.textValue === 'true' };
    case 'attachment':
      return attachmentValue(field, input.attachmentId ?? null, attachments);
  }
}

/** What a prefilled field stands at when the signer submits nothing for it (decision 17). */
function prefilled(field: Field): CheckedValue | null {
  const value = field.value ?? null;
  if (value === null || field.readOnly) return null;
  if (field.type === 'checkbox') return { fieldId: field.id, type: 'checkbox', kind: 'checkbox', checked: value === 'true' };
  if (field.type === 'text' && value !== '') return { fieldId: field.id, type: 'text', kind: 'text', text: value };
  return null;
}

/** The value a submitted entry gives its field, as a condition reads it (before it is checked). */
function rawText(field: Field, input: SubmittedField, signingDate: string): string {
  if (field.type === 'date') return signingDate;
  if (field.type === 'signature' || field.type === 'initial') return isBlank(input) ? '' : 'signed';
  return input.textValue ?? '';
}

/**
 * The signer's fields that are shown, on this submission and what others entered before (`earlier`, by field id): a
 * field of theirs the submission leaves out stands at its prefill, a date at the signing date.
 */
function shownOf(envelope: Envelope, mine: ReadonlyMap<string, Field>, submitted: readonly SubmittedField[], signingDate: string, earlier: ReadonlyMap<string, string>): Set<string> | null {
  if (!hasConditions(envelope)) return null;
  const values = new Map(earlier);
  for (const field of mine.values()) if (field.type === 'date') values.set(field.id, signingDate);
  for (const input of submitted) {
    const field = mine.get(input.fieldId);
    if (field && !field.readOnly) values.set(field.id, rawText(field, input, signingDate));
  }
  return shownFields(envelope, values);
}

/**
 * Checks a sign request against the signer's fields (decision 16, decision 17); every problem is named by its path.
 * A read-only field takes no value (it is sealed with its own); a prefilled field the signer leaves out keeps its prefill.
 * A field hidden by its condition takes no value either (`field_hidden`), and is neither required nor filled in.
 */
export function checkSubmission(
  envelope: Envelope, signer: Signer, submitted: readonly SubmittedField[], fontLabel: string | null, signingDate: string,
  earlier: ReadonlyMap<string, string> = new Map(),
): CheckedValue[] {
  const mine = new Map(envelope.fields.filter((f) => f.signerId === signer.id).map((f) => [f.id, f]));
  const shown = shownOf(envelope, mine, submitted, signingDate, earlier);
  const hidden = (field: Field) => shown !== null && !shown.has(field.id);
  const hiddenSent: string[] = [];
  const errors: FieldErrors = {};
  const values: CheckedValue[] = [];
  const seen = new Set<string>();
  submitted.forEach((input, i) => {
    const field = mine.get(input.fieldId);
    const at = `fields[${String(i)}]`;
    if (!field) errors[`${at}.fieldId`] = ['is not one of your fields'];
    else if (seen.has(field.id)) errors[`${at}.fieldId`] = ['is submitted twice'];
    else if (field.readOnly) errors[`${at}.fieldId`] = ['is read-only: its value is set by the sender'];
    else if (hidden(field)) {
      errors[`${at}.fieldId`] = [`is hidden: the condition on "${field.showIf?.label ?? ''}" is not met, so it takes no value`];
      hiddenSent.push(field.id);
    } else {
      seen.add(field.id);
      const value = checkValue(field, input, fontLabel, signingDate, envelope.attachments ?? []);
      if (typeof value === 'string') errors[at] = [value];
      else if (value) values.push(value);
    }
  });
  const overall: string[] = [];
  for (const field of mine.values()) {
    if (seen.has(field.id) || field.readOnly || hidden(field)) continue;
    const kept = prefilled(field);
    if (field.type === 'date') values.push({ fieldId: field.id, type: 'date', kind: 'date', date: signingDate });
    else if (kept) values.push(kept);
    else if (field.required) overall.push(`required ${field.label ?? field.type} field ${field.id} (page ${String(field.page)}) has no value`);
  }
  const textChars = values.reduce((n, v) => n + ('text' in v ? v.text.length : 0), 0);
  if (textChars > MAX_SUBMISSION_TEXT_CHARS) overall.push('the submitted text is too long in total');
  if (overall.length > 0) errors.fields = overall;
  if (hiddenSent.length > 0) throw new ValidationError('A value was sent for a field its condition hides', errors, 'field_hidden');
  if (Object.keys(errors).length > 0) throw new ValidationError('Some field values are missing or invalid', errors);
  return values;
}
