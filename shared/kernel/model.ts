import type { ChainHead } from './audit-chain.ts';
import type { Locale } from '../i18n/locales.ts';
import type { RetentionDays } from '../retention/retention.ts';
import type { EnvelopeBranding, EnvelopeSender } from '../console/branding.ts';
import type { LinkClaims } from './tokens.ts';
import type { ShowIf } from '../envelopes/field-conditions.ts';
import type { TextValidation } from '../envelopes/text-validation.ts';

/** 25 MB upload limit (decision 18), in bytes. */
export const MAX_UPLOAD_BYTES = 25 * 1024 * 1024;

export const ENVELOPE_STATUSES = ['draft', 'sent', 'in_progress', 'completed', 'declined', 'voided', 'expired'] as const;
export type EnvelopeStatus = (typeof ENVELOPE_STATUSES)[number];
export const TERMINAL_STATUSES: readonly EnvelopeStatus[] = ['completed', 'declined', 'voided', 'expired'];

export const SIGNER_STATUSES = ['pending', 'sent', 'viewed', 'signed', 'declined'] as const;
export type SignerStatus = (typeof SIGNER_STATUSES)[number];
export const AUTH_METHODS = ['email_otp', 'sms_otp', 'none'] as const;
export type AuthMethod = (typeof AUTH_METHODS)[number];

export const FIELD_TYPES = ['signature', 'initial', 'date', 'text', 'checkbox', 'attachment'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];
export const FIELD_ORIGINS = ['bottom-left', 'top-left'] as const;
export type FieldOrigin = (typeof FIELD_ORIGINS)[number];

export interface Signer {
  id: string;
  name: string;
  email: string;
  phone: string | null;
  routingOrder: number;
  status: SignerStatus;
  authMethod: AuthMethod;
  signedAt: string | null;
  declinedAt: string | null;
  /** Bumped to invalidate every link minted before (resend). */
  tokenVersion: number;
  /** SHA-256 of the signer's current signing link; the link itself is never stored. */
  linkHash: string | null;
  viewedAt: string | null;
  otp: OtpState | null;
  /** When the signer asked for codes, within the last rate window. */
  otpRequests: string[];
  otpVerifiedAt: string | null;
  /** Codes sent and wrong codes entered since the link was first sent (or last unlocked); absent: none yet. */
  otpUsage?: OtpUsage | null;
  consentedAt: string | null;
  declineReason: string | null;
  /** The language of the signer's emails, SMS and signing page (decision 39); absent on records from before it. */
  locale?: Locale;
  /** Signed in inside the integrator's app (decision 36): never emailed an invitation, a reminder or a notice. */
  embedded?: boolean;
  /** When the signer's routing group was reached: the reminder schedule counts from it (decision 37). */
  invitedAt?: string | null;
  /** The last reminder, automatic or manual. */
  lastRemindedAt?: string | null;
  /** The current link's claims, so a reminder carries the same link (the token is minted again from them, never stored). */
  link?: LinkClaims | null;
  /** The last embedded signing URL issued for the signer (decision 36). */
  embedTicket?: EmbedTicket | null;
}

/** An embedded signing URL: valid 5 minutes until first opened; opening it once spends it. */
export interface EmbedTicket {
  jti: string;
  expiresAt: string;
  openedAt: string | null;
  returnUrl: string | null;
}

/** When unsigned signers are reminded (decision 37): first after `firstAfterDays`, then every `everyDays` (null: once). */
export interface ReminderSettings {
  firstAfterDays: number;
  everyDays: number | null;
}

/** Someone who signs nothing and receives the completion email and the notices (decision 38). */
export interface CarbonCopy {
  name: string;
  email: string;
}

/** The signer's current one-time code: only its keyed hash is kept. */
export interface OtpState {
  codeHash: string;
  expiresAt: string;
  failures: number;
  channel: 'email' | 'sms';
}

/** The link's lifetime one-time-code budget as used so far; `lockedAt` once it ran out (until the sender resends). */
export interface OtpUsage {
  codesSent: number;
  wrongTries: number;
  lockedAt: string | null;
}

export interface Field {
  id: string;
  /** The original it sits on; null only while the envelope has no document (JSON create places fields before the upload). */
  documentId: string | null;
  signerId: string;
  type: FieldType;
  page: number;
  x: number;
  y: number;
  w: number;
  h: number;
  required: boolean;
  origin: FieldOrigin;
  /** The name the signer sees ("Company name"); null: the type's own name (decision 17). */
  label?: string | null;
  /** A prefilled value (text; checkbox `"true"`/`"false"`): drawn if the signer submits nothing; the sealed value if read-only. */
  value?: string | null;
  /** Shown with its value, never changed by the signer; not a field the signer must fill. */
  readOnly?: boolean;
  /** Shown only while another field (by its label) has a value: hidden, it is not required, not sealed, takes no value. */
  showIf?: ShowIf | null;
  /** Text fields: what the value must look like. */
  validation?: TextValidation | null;
  /** Attachment fields: the file formats the signer may add (docs/attachments.md). */
  accept?: AttachmentFormat[];
  /** Attachment fields: the largest file the signer may add. */
  maxBytes?: number;
}

/** What a signer may attach, told by content (shared/attachments/attachment-content.ts). */
export const ATTACHMENT_FORMATS = ['pdf', 'png', 'jpeg'] as const;
export type AttachmentFormat = (typeof ATTACHMENT_FORMATS)[number];
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;

/** A file a signer added for an attachment field: one per field; embedded in the sealed PDF. */
export interface Attachment {
  id: string;
  fieldId: string;
  signerId: string;
  /** The file name the signer's browser gave, else `attachment.<ext>`. */
  name: string;
  format: AttachmentFormat;
  sizeBytes: number;
  sha256: string;
  blobKey: string;
  createdAt: string;
  retentionUntil: string | null;
  purgeStatus: 'active' | 'purged';
  purgedAt?: string | null;
}

export interface PageBox { x: number; y: number; width: number; height: number }
export interface PageGeometry { box: PageBox; rotate: 0 | 90 | 180 | 270 }
/** Documents' page geometry by document id: read from beside each PDF when needed, never part of a record. */
export type DocumentPages = ReadonlyMap<string, readonly PageGeometry[]>;

export interface Document {
  id: string;
  kind: 'original' | 'sealed';
  /** The part's filename, else `document-N.pdf` (decision 9); a sealed document carries its original's. */
  name?: string;
  /** Position among the originals, 1-based and contiguous; a sealed document has its original's. */
  order?: number;
  /** The original a sealed document seals. */
  sourceDocumentId?: string | null;
  /** Where the text index for anchor placement is stored (JSON beside the PDF); originals only. */
  textIndexKey?: string | null;
  /** Where its page geometry is stored (JSON beside the PDF: 10,000 pages would outgrow the record); originals only. */
  pagesKey?: string | null;
  mimeType: 'application/pdf';
  sha256: string;
  pageCount: number;
  sizeBytes: number;
  blobKey: string;
  createdAt: string;
  retentionUntil: string | null;
  purgeStatus: 'active' | 'purged';
  purgedAt?: string | null;
  /** Sealed documents: how many document timestamps the archive renewal added (its file is no longer the one sealed). */
  archiveRenewals?: number;
  /** Sealed documents: when the authority certificate of the file's last document timestamp expires (B-LTA only). */
  archiveValidUntil?: string;
  /** Sealed documents: the PAdES level the seal was made at (records from before it was kept have none). */
  padesLevel?: 'B-B' | 'B-T' | 'B-LT' | 'B-LTA';
}

export interface Envelope {
  id: string;
  appId: string;
  tenantId: string;
  status: EnvelopeStatus;
  subject: string | null;
  createdBy: string | null;
  message: string | null;
  expiresInDays: number;
  expiresAt: string;
  /** The tenant's retention length when the envelope was created; the window starts when it ends. */
  retentionDays: number;
  /** The tenant's default locale when the envelope was created: the language of recipients without their own. */
  locale?: Locale;
  /** When the stored PDFs are deleted; set when the envelope ends. */
  deletionAt?: string | null;
  createdAt: string;
  sentAt: string | null;
  completedAt: string | null;
  voidedAt: string | null;
  voidReason: string | null;
  documentHashOriginal: string | null;
  documentHashFinal: string | null;
  fieldOrigin: FieldOrigin;
  signers: Signer[];
  fields: Field[];
  documents: Document[];
  /** Files signers added for attachment fields (absent on records from before them). */
  attachments?: Attachment[];
  /** Optimistic lock: every committed change increments it. */
  version: number;
  auditHead: ChainHead;
  /** Download-portal links of the sealed copy, one per recipient (created at completion). */
  downloadLinks?: DownloadLink[];
  /** Set when every signer has signed: how the seal is going, for the seal sweep (decision 42). */
  sealing?: SealingState | null;
  /** Automatic reminders (decision 37); null or absent: none. */
  reminders?: ReminderSettings | null;
  /** Carbon copies (decision 38). */
  cc?: CarbonCopy[];
  /** The last manual remind (POST /remind): at most one an hour. */
  lastManualRemindAt?: string | null;
  /** The template it was made from, if any. */
  templateId?: string | null;
  /** The bulk send and row that made it, if any. */
  bulkSend?: { id: string; row: number } | null;
  /** A signer may hand their place to someone else from the signing page (the sender always may). */
  allowReassign?: boolean;
  /** The branding in force when it was created (docs/branding.md); null or absent: none. */
  branding?: EnvelopeBranding | null;
  /** Who asks the signers: given at create, else the signed-in user who created it; null or absent: not named. */
  sender?: EnvelopeSender | null;
}

/** Sealing of a fully signed envelope: each round is one workflow execution; the sweep starts the next if one stalls. */
export interface SealingState {
  /** Executions started so far (the first by the last signature). */
  rounds: number;
  startedAt: string;
  /** When the sweep looks again if the envelope is still not completed; null once it gave up (an operator's turn). */
  nextCheckAt: string | null;
  /** Why the last round failed, as the workflow reported it. */
  lastError: string | null;
}

export interface DownloadLink {
  id: string;
  name: string;
  email: string;
  signerId: string | null;
  /** SHA-256 of the link token; the token is minted again from these claims when the email goes out. */
  tokenHash: string;
  issuedAt: number;
  expiresAt: number;
  downloadedAt: string | null;
  /** Reminder thresholds (days before deletion) already sent for this link. */
  remindersSent?: number[];
}

/** Per (application, tenantId) defaults (decision 28). */
export interface TenantSettings {
  appId: string;
  tenantId: string;
  defaultExpiresInDays: number;
  retentionDays: RetentionDays;
  fieldOrigin: FieldOrigin;
  /** The locale of signers created without one (decision 39). */
  defaultLocale: Locale;
  /** Reminders of envelopes created without their own (decision 37); null: off. */
  defaultReminders?: ReminderSettings | null;
}

export const DEFAULT_TENANT = { defaultExpiresInDays: 30, retentionDays: 30, fieldOrigin: 'bottom-left', defaultLocale: 'en', defaultReminders: null } as const;

/** Where a request came from, for the audit trail. */
export interface RequestMeta {
  ip: string | null;
  userAgent: string | null;
  /** Who made the request, as audit entries name them: `user:<email>` for a console user; absent: `system`. */
  actor?: string;
}

export const isTerminal = (status: EnvelopeStatus) => TERMINAL_STATUSES.includes(status);

/** At most this many originals per envelope, and this many bytes of them together (decision 9). */
export const MAX_DOCUMENTS = 10;
export const MAX_TOTAL_DOCUMENT_BYTES = 100 * 1024 * 1024;
/** Pages of an envelope's (or a template's) documents together; one document has at most 2,000 (shared/pdf/pdf-limits.ts). */
export const MAX_ENVELOPE_PAGES = 10_000;

/** The envelope's originals in their order (the first is the one single-document reads return). */
export const originals = (envelope: Pick<Envelope, 'documents'>): Document[] =>
  envelope.documents.filter((d) => d.kind === 'original').sort((a, b) => (a.order ?? 1) - (b.order ?? 1));
export const originalDocument = (envelope: Pick<Envelope, 'documents'>): Document | undefined => originals(envelope)[0];
/** The sealed document of an original (after completion). */
export const sealedOf = (envelope: Pick<Envelope, 'documents'>, original: Document): Document | undefined =>
  envelope.documents.find((d) => d.kind === 'sealed' && (d.sourceDocumentId ?? originalDocument(envelope)?.id) === original.id);
/** A document's name: its own, else `document-N.pdf` by its position (records from before names existed). */
export const documentName = (document: Document): string => document.name ?? `document-${String(document.order ?? 1)}.pdf`;
