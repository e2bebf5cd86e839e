/** What the draft edits take (draft-edits.ts): a field replaced by coordinates, the subject and message. */
import * as v from 'valibot';
import { finiteNumber, idOf } from '../http/common-schemas.ts';
import type { DraftDetails, FieldReplacement } from './draft-edits.ts';
import { fieldGeometry } from './envelope-schemas.ts';

export const FieldParams = v.object({ id: v.string(), fieldId: v.string() });

const { anchor: _anchor, page: _page, x: _x, y: _y, origin, ...attributes } = fieldGeometry;

/** A field's new placement and attributes: by coordinates (an anchor places new fields only). */
export const ReplaceFieldRequest = v.object({
  ...attributes,
  page: v.pipe(v.number('must be an integer'), v.integer('must be an integer'), v.minValue(1, 'must be at least 1')),
  x: finiteNumber,
  y: finiteNumber,
  origin: v.pipe(origin, v.description("Absent: the field's own origin")),
  signerId: idOf('sgn', 'signer'),
  documentId: v.optional(v.nullable(v.pipe(idOf('doc', 'document'), v.description('Moves the field to another document; absent: it stays on its own'))), null),
}) satisfies v.GenericSchema<unknown, FieldReplacement>;

const text = (max: number) => v.pipe(v.string('must be a string'), v.trim(), v.maxLength(max, `must be at most ${String(max)} characters`));

export const UpdateEnvelopeRequest = v.object({
  subject: v.optional(v.nullable(text(255))),
  message: v.optional(v.pipe(v.nullable(text(5000)), v.description('Shown in the invitation email; a message given at send replaces it'))),
}) satisfies v.GenericSchema<unknown, DraftDetails>;
