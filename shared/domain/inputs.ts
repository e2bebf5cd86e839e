/**
 * What the use cases take from a caller: the domain's own input types. The request schemas (shared/schemas) check
 * what arrives and produce these (each schema is declared `satisfies` the type it produces), so the domain never
 * depends on the validation library.
 */
import type { SignerInput } from './envelope.ts';
import type { FieldOrigin, FieldType } from './model.ts';

export type { SignerInput };

/** Where a field sits on its page and what it is. */
export interface FieldPlacement {
  type: FieldType;
  page: number;
  x: number;
  y: number;
  w: number;
  h: number;
  required: boolean;
  origin?: FieldOrigin | undefined;
}

/** A field in a create request: signers have no ids yet, so they are named by index or email (DECISIONS 4). */
export interface CreateFieldInput extends FieldPlacement {
  signerIndex?: number | undefined;
  signerEmail?: string | undefined;
}

export interface CreateEnvelopeInput {
  tenantId: string;
  subject: string | null;
  createdBy: string | null;
  signers: SignerInput[];
  fields: CreateFieldInput[];
  expiresInDays: number | null;
  fieldOrigin?: FieldOrigin | undefined;
}

/** A field added to a draft by ids. */
export interface AddFieldInput extends FieldPlacement {
  documentId: string | null;
  signerId: string;
}
