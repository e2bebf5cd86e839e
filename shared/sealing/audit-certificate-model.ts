/** What the audit certificate prints (certificate.ts draws it, certificate-evidence.ts lays out its rows). */
export type PadesLevel = 'B-B' | 'B-T' | 'B-LT' | 'B-LTA';

/** A signature or initials as the signer adopted them: an image (drawn or uploaded), or text typed in a font. */
export type AdoptedSignature =
  | { field: 'signature' | 'initial'; kind: 'image'; png: Uint8Array; source?: 'drawn' | 'uploaded' }
  | { field: 'signature' | 'initial'; kind: 'typed'; text: string; fontLabel: string };

export interface CertificateSigner {
  id: string;
  name: string;
  email: string;
  status: string;
  signedAt: string | null;
  /** Absent (callers that predate it): the certificate leaves out the authentication, consent and adoption rows. */
  authMethod?: 'email_otp' | 'sms_otp' | 'none';
  /** The number SMS codes went to: printed masked, never whole. */
  phone?: string | null;
  /** The version of the consent disclosure the signer accepted; null if none, or accepted before versions were recorded. */
  consentVersion?: string | null;
  /** Each distinct signature and initials the signer adopted. */
  adopted?: AdoptedSignature[];
}

export interface AuditCertificateInput {
  envelopeId: string;
  subject: string | null;
  originalSha256: string;
  originalPageCount: number;
  createdAt: string;
  /** The envelope's completion time (finalize takes the seal's time), printed to the millisecond. */
  completedAt: string;
  /** The audit chain's head as of sealing: the event number and its hash, as GET .../audit/verify confirms them. */
  chainHead: { seq: number; hash: string };
  /** The PAdES level the seal is made at (the seal fails rather than reach a lower one). */
  padesLevel: PadesLevel;
  /** Every document of the envelope; `thisFile` marks the one this certificate is appended to. */
  documents: { name: string; sha256: string; pageCount: number; thisFile?: boolean }[];
  /** Who sent it: the name the application gave (createdBy), the application, and when. */
  sender?: { createdBy: string | null; appId: string; sentAt: string | null; name?: string | null; email?: string | null };
  /** The organisation the envelope was sent for (its branding): named in every page's header. */
  organizationName?: string | null;
  cc?: { name: string; email: string }[];
  /** Who seals: the seal certificate's subject, and the timestamp authority's host (null: no timestamp). */
  seal?: { subject: string; timestampAuthority: string | null };
  signers: CertificateSigner[];
  /** The verification page for this file (`<signing host>/verify#<envelopeId>.<documentId>`): printed, and drawn as a QR code. */
  verifyUrl?: string;
  events: { seq: number; timestamp: string; event: string; actor: string; ip: string | null; userAgent: string | null }[];
  /** Files signers attached, each embedded in the sealed file of the document its field is on. */
  attachments?: CertificateAttachment[];
}

export interface CertificateAttachment {
  name: string;
  sizeBytes: number;
  sha256: string;
  /** Who attached it: "Name <email>". */
  addedBy: string;
  /** The document whose sealed file embeds it. */
  document: string;
}
