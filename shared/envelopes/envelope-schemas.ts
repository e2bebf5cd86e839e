import * as v from 'valibot';
import { LOCALES } from '#shared/i18n/locales.ts';
import { ATTACHMENT_FORMATS, AUTH_METHODS, ENVELOPE_STATUSES, FIELD_ORIGINS, FIELD_TYPES, MAX_ATTACHMENT_BYTES } from '#shared/kernel/model.ts';
import type { AddFieldInput, CreateEnvelopeInput, SignerInput } from '#shared/envelopes/envelope-inputs.ts';
import { finiteNumber, idOf, queryInt, TenantId } from '../http/common-schemas.ts';
import { MAX_PATTERN_CHARS, TEXT_FORMATS } from '#shared/envelopes/pattern-rules.ts';

const text = (max: number) => v.pipe(v.string('must be a string'), v.trim(), v.maxLength(max, `must be at most ${String(max)} characters`));
const requiredText = (max: number) => v.pipe(text(max), v.nonEmpty('is required'));

export const E164 = /^\+[1-9]\d{6,14}$/;

export const CreateSignerRequest = v.pipe(
  v.object({
    name: requiredText(200),
    email: v.pipe(v.string('must be an email address'), v.trim(), v.email('must be an email address'), v.maxLength(254, 'must be at most 254 characters')),
    phone: v.optional(v.nullable(v.pipe(v.string(), v.trim(), v.regex(E164, 'must be an E.164 phone number such as +14155550100'))), null),
    routingOrder: v.optional(v.pipe(v.number('must be an integer'), v.integer('must be an integer'), v.minValue(1, 'must be at least 1'), v.maxValue(1000, 'must be at most 1000')), 1),
    authMethod: v.optional(v.picklist(AUTH_METHODS, `must be one of ${AUTH_METHODS.join(', ')}`), 'email_otp'),
    locale: v.optional(v.pipe(v.picklist(LOCALES, `must be one of ${LOCALES.join(', ')}`), v.description("The language of the signer's emails, SMS and signing page; absent: the tenant's `defaultLocale`"))),
    embedded: v.optional(v.pipe(v.boolean('must be true or false'), v.description('Signs inside your app through an embedded URL: no invitation email or SMS')), false),
  }),
  v.forward(
    v.check((s) => s.authMethod !== 'sms_otp' || s.phone !== null, 'is required when authMethod is sms_otp'),
    ['phone'],
  ),
) satisfies v.GenericSchema<unknown, SignerInput>;

const coordinate = v.optional(finiteNumber);

export const AnchorRequest = v.object({
  text: v.pipe(v.string('must be the text to find'), v.minLength(1, 'must not be empty'), v.maxLength(100, 'must be at most 100 characters'), v.description('Found case-sensitively in the document\'s text, e.g. `/sig1/`')),
  offsetX: v.optional(finiteNumber, 0),
  offsetY: v.optional(finiteNumber, 0),
  occurrence: v.optional(v.picklist(['all', 'first'], 'must be all or first'), 'all'),
  ignoreIfMissing: v.optional(v.boolean('must be true or false'), false),
});

const length = v.pipe(v.number('must be an integer'), v.integer('must be an integer'), v.minValue(0, 'must be at least 0'), v.maxValue(1000, 'must be at most 1000'));

/** Shown only while the field with `label` equals `equals` and/or is filled in (`notEmpty`; neither given: filled in). */
export const ShowIfRequest = v.pipe(v.object({
  label: requiredText(100),
  equals: v.optional(v.nullable(v.pipe(v.string('must be a string'), v.maxLength(1000, 'must be at most 1000 characters')))),
  notEmpty: v.optional(v.boolean('must be true or false')),
}, 'must be an object with label and equals or notEmpty'), v.description(
  'Shown only while the field of this envelope labelled `label` has the value `equals` (a checkbox: `"true"`/`"false"`), or any value (`notEmpty`). ' +
  'Hidden, the field is not required, not sealed, and a value sent for it is refused (`field_hidden`). The label must be on exactly one field; conditions must not form a cycle.',
));

/** What a text field's value must look like; checked by the signing page and by the service. */
export const ValidationRequest = v.pipe(v.object({
  format: v.optional(v.picklist(TEXT_FORMATS, `must be one of ${TEXT_FORMATS.join(', ')}`)),
  minLength: v.optional(length),
  maxLength: v.optional(length),
  pattern: v.optional(v.pipe(v.string('must be a string'), v.minLength(1, 'must not be empty'), v.maxLength(MAX_PATTERN_CHARS, `must be at most ${String(MAX_PATTERN_CHARS)} characters`),
    v.description('RE2 syntax, matched against the whole value in linear time; backreferences and lookaround are refused'))),
}, 'must be an object'), v.description('Text fields only: `format` (`email`, `number`, `date` as YYYY-MM-DD), lengths in characters, and a `pattern`'));

export const fieldGeometry = {
  type: v.picklist(FIELD_TYPES, `must be one of ${FIELD_TYPES.join(', ')}`),
  page: v.optional(v.pipe(v.number('must be an integer'), v.integer('must be an integer'), v.minValue(1, 'must be at least 1'))),
  x: coordinate,
  y: coordinate,
  w: v.pipe(finiteNumber, v.gtValue(0, 'must be greater than 0')),
  h: v.pipe(finiteNumber, v.gtValue(0, 'must be greater than 0')),
  required: v.optional(v.boolean('must be true or false'), true),
  origin: v.optional(v.picklist(FIELD_ORIGINS, `must be one of ${FIELD_ORIGINS.join(', ')}`)),
  anchor: v.optional(AnchorRequest),
  label: v.optional(v.nullable(text(100)), null),
  value: v.optional(v.nullable(v.pipe(v.string('must be a string'), v.maxLength(1000, 'must be at most 1000 characters'))), null),
  readOnly: v.optional(v.boolean('must be true or false'), false),
  showIf: v.optional(v.nullable(ShowIfRequest), null),
  validation: v.optional(v.nullable(ValidationRequest), null),
  accept: v.optional(v.pipe(
    v.array(v.picklist(ATTACHMENT_FORMATS, `must be one of ${ATTACHMENT_FORMATS.join(', ')}`), 'must be an array of formats'),
    v.minLength(1, 'must name at least one format'), v.maxLength(3, 'must name at most 3 formats'),
    v.description('Attachment fields: the formats the signer may add, told by content; default all three'),
  )),
  maxBytes: v.optional(v.pipe(
    v.number('must be a whole number of bytes'), v.integer('must be a whole number of bytes'), v.minValue(1, 'must be at least 1'),
    v.maxValue(MAX_ATTACHMENT_BYTES, `must be at most ${String(MAX_ATTACHMENT_BYTES)} (10 MB)`), v.description('Attachment fields: the largest file the signer may add; default and at most 10 MB'),
  )),
};

/** Coordinates, or an anchor: one of the two. */
interface Placed { page?: number | undefined; x?: number | undefined; y?: number | undefined; anchor?: unknown }
export const placementProblem = (f: Placed): 'page' | 'x' | 'y' | 'anchor' | null => {
  if (f.anchor !== undefined) return f.page === undefined && f.x === undefined && f.y === undefined ? null : 'anchor';
  return f.page === undefined ? 'page' : f.x === undefined ? 'x' : f.y === undefined ? 'y' : null;
};
export const PLACEMENT_MESSAGE = 'place the field with page, x and y, or with an anchor (not both)';

/** A field in a create request: signers have no ids yet, so they are named by index or email (decision 8). */
export const CreateFieldRequest = v.pipe(
  v.object({
    ...fieldGeometry,
    signerIndex: v.optional(v.pipe(v.number(), v.integer('must be an integer'), v.minValue(0, 'must be at least 0'))),
    signerEmail: v.optional(v.pipe(v.string(), v.trim(), v.email('must be an email address'))),
    signerId: v.optional(v.string()),
    documentIndex: v.optional(v.pipe(v.number('must be an integer'), v.integer('must be an integer'), v.minValue(0, 'must be at least 0'), v.description('0-based position of the field\'s document among the request\'s `file` parts (default 0)'))),
  }),
  v.forward(
    v.check((f) => f.signerIndex !== undefined || f.signerEmail !== undefined,
      'name the signer with signerIndex (0-based position in signers) or signerEmail'),
    ['signerIndex'],
  ),
  v.forward(v.check((f) => placementProblem(f) !== 'page', PLACEMENT_MESSAGE), ['page']),
  v.forward(v.check((f) => placementProblem(f) !== 'x', PLACEMENT_MESSAGE), ['x']),
  v.forward(v.check((f) => placementProblem(f) !== 'y', PLACEMENT_MESSAGE), ['y']),
  v.forward(v.check((f) => placementProblem(f) !== 'anchor', PLACEMENT_MESSAGE), ['anchor']),
);

const days = v.pipe(v.number('must be an integer'), v.integer('must be an integer'), v.minValue(1, 'must be at least 1'), v.maxValue(60, 'must be at most 60'));

/** Automatic reminders. */
export const RemindersRequest = v.nullable(v.object({
  firstAfterDays: days,
  everyDays: v.optional(v.nullable(days), null),
}, 'must be an object with firstAfterDays and everyDays, or null'));

export const CarbonCopyRequest = v.object({
  name: requiredText(200),
  email: v.pipe(v.string('must be an email address'), v.trim(), v.email('must be an email address'), v.maxLength(254, 'must be at most 254 characters')),
});

/** Who asks the signers ("Jane Doe at Acme Corp asked you to sign ..."); absent: the signed-in user who creates it. */
export const SenderRequest = v.pipe(v.object({
  name: v.pipe(requiredText(200), v.check((value) => !/[\p{Cc}<>]/u.test(value), 'must not contain control characters or angle brackets')),
  email: v.optional(v.nullable(v.pipe(v.string('must be an email address'), v.trim(), v.email('must be an email address'), v.maxLength(254, 'must be at most 254 characters'))), null),
}, 'must be an object { name, email }'), v.description('Who asks the signers: named in every email and on the signing page; their email is the reply-to unless the branding sets one'));

export const CreateEnvelopeRequest = v.object({
  tenantId: TenantId,
  subject: v.optional(v.nullable(text(255)), null),
  createdBy: v.optional(v.nullable(text(255)), null),
  signers: v.pipe(v.array(CreateSignerRequest, 'must be an array of signers'), v.minLength(1, 'at least one signer is required')),
  fields: v.optional(v.array(CreateFieldRequest, 'must be an array of fields'), []),
  expiresInDays: v.optional(v.nullable(v.pipe(v.number('must be an integer'), v.integer('must be an integer'), v.minValue(1, 'must be at least 1'), v.maxValue(3650, 'must be at most 3650'))), null),
  fieldOrigin: v.optional(v.picklist(FIELD_ORIGINS, `must be one of ${FIELD_ORIGINS.join(', ')}`)),
  reminders: v.optional(v.pipe(RemindersRequest, v.description('Automatic reminders; absent: the tenant\'s defaultReminders; null: none'))),
  cc: v.optional(v.pipe(v.array(CarbonCopyRequest, 'must be an array of { name, email }'), v.maxLength(20, 'at most 20 carbon copies'), v.description('Receive the completion email and the notices; sign nothing')), []),
  allowReassign: v.optional(v.pipe(v.boolean('must be true or false'), v.description('The signing page offers "someone else should sign": a signer may hand their place to another person')), false),
  sender: v.optional(SenderRequest),
}) satisfies v.GenericSchema<unknown, CreateEnvelopeInput>;

export const AddFieldRequest = v.pipe(
  v.object({
    ...fieldGeometry,
    documentId: v.optional(v.nullable(idOf('doc', 'document')), null),
    signerId: idOf('sgn', 'signer'),
  }),
  v.forward(v.check((f) => placementProblem(f) !== 'page', PLACEMENT_MESSAGE), ['page']),
  v.forward(v.check((f) => placementProblem(f) !== 'x', PLACEMENT_MESSAGE), ['x']),
  v.forward(v.check((f) => placementProblem(f) !== 'y', PLACEMENT_MESSAGE), ['y']),
  v.forward(v.check((f) => placementProblem(f) !== 'anchor', PLACEMENT_MESSAGE), ['anchor']),
) satisfies v.GenericSchema<unknown, AddFieldInput>;

/** Someone else takes a signer's place: their identity; absent authMethod and locale keep the slot's. */
export const ReassignRequest = v.pipe(
  v.object({
    name: requiredText(200),
    email: v.pipe(v.string('must be an email address'), v.trim(), v.email('must be an email address'), v.maxLength(254, 'must be at most 254 characters')),
    phone: v.optional(v.nullable(v.pipe(v.string(), v.trim(), v.regex(E164, 'must be an E.164 phone number such as +14155550100'))), null),
    authMethod: v.optional(v.picklist(AUTH_METHODS, `must be one of ${AUTH_METHODS.join(', ')}`)),
    locale: v.optional(v.picklist(LOCALES, `must be one of ${LOCALES.join(', ')}`)),
    reason: v.optional(v.nullable(text(1000)), null),
  }),
  v.forward(v.check((s) => s.authMethod !== 'sms_otp' || s.phone !== null, 'is required when authMethod is sms_otp'), ['phone']),
);

export const SendRequest = v.object({
  message: v.optional(v.nullable(text(5000)), null),
});

export const VoidRequest = v.object({
  reason: v.optional(v.nullable(text(1000)), null),
});

export const ListEnvelopesQuery = v.object({
  tenantId: TenantId,
  status: v.optional(v.picklist(ENVELOPE_STATUSES, `must be one of ${ENVELOPE_STATUSES.join(', ')}`)),
  q: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200, 'must be at most 200 characters'), v.description('Part of the subject or of a signer\'s or carbon copy\'s email address, any case'))),
  page: queryInt(1, 1_000_000, 1),
  pageSize: queryInt(1, 100, 20),
});

/** Which document: without `documentId`, the first; `documentId` may name an original or its sealed copy. */
const documentIdQuery = v.optional(v.pipe(v.string(), v.maxLength(64, 'is not a document id'), v.description('An original or its sealed copy; default the first document')));

export const DocumentQuery = v.object({
  kind: v.optional(v.picklist(['original', 'sealed'], 'must be original or sealed'), 'original'),
  documentId: documentIdQuery,
});

/** A document of a signing or download link. */
export const LinkDocumentQuery = v.object({ documentId: documentIdQuery });

/** The raw upload's name for the new document. */
export const UploadQuery = v.object({
  filename: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(255, 'must be at most 255 characters'))),
});

export const DocumentParams = v.object({ id: v.string(), documentId: v.string() });

/** A presigned upload: the new document's name, and its size when known (over 25 MB: 413 at once). */
export const UploadUrlRequest = v.object({
  filename: v.optional(v.nullable(v.pipe(v.string(), v.trim(), v.maxLength(255, 'must be at most 255 characters'))), null),
  sizeBytes: v.optional(v.nullable(v.pipe(v.number(), v.integer('must be a whole number of bytes'), v.minValue(1, 'must be at least 1'))), null),
});

export const UploadParams = v.object({ id: v.string(), uploadId: v.string() });
