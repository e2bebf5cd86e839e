import type { FieldErrors } from '../kernel/errors.ts';
import { ATTACHMENT_FORMATS, MAX_ATTACHMENT_BYTES, type AttachmentFormat, type FieldType } from '../kernel/model.ts';

/** Every attachment is embedded in the sealed file of its document: ten of at most 10 MB keep a sealed PDF within reach of a download. */
export const MAX_ATTACHMENT_FIELDS = 10;

interface AttachmentSettings {
  type: FieldType;
  label?: string | null | undefined;
  accept?: readonly AttachmentFormat[] | undefined;
  maxBytes?: number | undefined;
}

/** The rules of an attachment field (a label the signer reads, formats, size), keyed by `at(attribute)`; other types take no accept or maxBytes. */
export function attachmentFieldErrors(field: AttachmentSettings, at: (attribute: string) => string): FieldErrors {
  if (field.type !== 'attachment') {
    if (field.accept !== undefined) return { [at('accept')]: ['only attachment fields take accept'] };
    if (field.maxBytes !== undefined) return { [at('maxBytes')]: ['only attachment fields take maxBytes'] };
    return {};
  }
  if (!field.label?.trim()) return { [at('label')]: ['is required for an attachment field: it tells the signer what to add'] };
  if (field.accept !== undefined && (field.accept.length === 0 || field.accept.some((f) => !ATTACHMENT_FORMATS.includes(f)))) {
    return { [at('accept')]: [`must list one or more of ${ATTACHMENT_FORMATS.join(', ')}`] };
  }
  if (field.maxBytes !== undefined && (!Number.isInteger(field.maxBytes) || field.maxBytes < 1 || field.maxBytes > MAX_ATTACHMENT_BYTES)) {
    return { [at('maxBytes')]: [`must be a whole number of bytes from 1 to ${String(MAX_ATTACHMENT_BYTES)}`] };
  }
  return {};
}

/** An attachment field's formats and size with their defaults (every format, 10 MB); nothing for other types. */
export function attachmentSettings(field: AttachmentSettings): { accept?: AttachmentFormat[]; maxBytes?: number } {
  if (field.type !== 'attachment') return {};
  return { accept: [...new Set(field.accept ?? ATTACHMENT_FORMATS)], maxBytes: field.maxBytes ?? MAX_ATTACHMENT_BYTES };
}

/** How many attachment fields a set of fields holds beyond the cap: an error for `path`, or none. */
export function attachmentCountErrors(fields: readonly { type: FieldType }[], path: string): FieldErrors {
  const count = fields.filter((f) => f.type === 'attachment').length;
  return count > MAX_ATTACHMENT_FIELDS ? { [path]: [`at most ${String(MAX_ATTACHMENT_FIELDS)} attachment fields per envelope`] } : {};
}
