/**
 * What the use cases take from a caller: the domain's own input types. The request schemas (envelope-schemas.ts) check
 * what arrives and produce these (each schema is declared `satisfies` the type it produces), so the domain never
 * depends on the validation library.
 */
import type { SignerInput } from './envelope.ts';
import type { ShowIf } from './field-conditions.ts';
import type { TextValidation } from './text-validation.ts';
import type { EnvelopeSender } from '../console/branding.ts';
import type { AttachmentFormat, CarbonCopy, FieldOrigin, FieldType, ReminderSettings } from '../kernel/model.ts';

export type { SignerInput };

/** Placement by a text in the document instead of coordinates (decision 17). */
export interface AnchorInput {
  text: string;
  /** Added to the anchor text's origin, in points of PDF user space. */
  offsetX: number;
  offsetY: number;
  occurrence: 'all' | 'first';
  ignoreIfMissing: boolean;
}

/** What a field is, and where: coordinates, or an anchor (then `page`, `x` and `y` are found in the document). */
export interface FieldPlacement {
  type: FieldType;
  page?: number | undefined;
  x?: number | undefined;
  y?: number | undefined;
  w: number;
  h: number;
  required: boolean;
  origin?: FieldOrigin | undefined;
  anchor?: AnchorInput | undefined;
  label?: string | null | undefined;
  value?: string | null | undefined;
  readOnly?: boolean | undefined;
  showIf?: ShowIf | null | undefined;
  validation?: TextValidation | null | undefined;
  accept?: AttachmentFormat[] | undefined;
  maxBytes?: number | undefined;
}

/** A field in a create request: signers and documents have no ids yet, so they are named by index (or email) (decision 8). */
export interface CreateFieldInput extends FieldPlacement {
  signerIndex?: number | undefined;
  signerEmail?: string | undefined;
  /** 0-based position among the request's documents (decision 9); default the first. */
  documentIndex?: number | undefined;
}

export interface CreateEnvelopeInput {
  tenantId: string;
  subject: string | null;
  createdBy: string | null;
  signers: SignerInput[];
  fields: CreateFieldInput[];
  expiresInDays: number | null;
  fieldOrigin?: FieldOrigin | undefined;
  /** Absent: the tenant's `defaultReminders`; null: none (decision 37). */
  reminders?: ReminderSettings | null | undefined;
  cc?: CarbonCopy[] | undefined;
  /** A signer may hand their place to someone else from the signing page (default false). */
  allowReassign?: boolean | undefined;
  /** Who asks the signers; absent: the signed-in user who creates it, if any. */
  sender?: EnvelopeSender | undefined;
}

/** A field added to a draft by ids. */
export interface AddFieldInput extends FieldPlacement {
  documentId: string | null;
  signerId: string;
}

/** An uploaded document: its bytes and the name to give it. */
export interface UploadInput {
  bytes: Uint8Array;
  filename: string | null;
}
