/**
 * The verification report (the page's JSON export and `npm run verify -- --json`), in the terms of ETSI EN 319 102-1:
 * an indication per signature and for the whole file (TOTAL_PASSED, TOTAL_FAILED, INDETERMINATE) with a
 * sub-indication saying why it did not pass.
 */
import type { CertificateSummary, RevocationFinding, Trust } from './verify-chain.ts';
import type { Modification } from './verify-pdf.ts';

export type Indication = 'TOTAL_PASSED' | 'TOTAL_FAILED' | 'INDETERMINATE';

export type SubIndication =
  | 'FORMAT_FAILURE' | 'HASH_FAILURE' | 'SIG_CRYPTO_FAILURE' | 'REVOKED' | 'SIG_CONSTRAINTS_FAILURE'
  | 'NO_CERTIFICATE_CHAIN_FOUND' | 'NO_SIGNING_CERTIFICATE_FOUND' | 'OUT_OF_BOUNDS_NO_POE' | 'NOT_YET_VALID' | 'SIGNED_DATA_NOT_FOUND'
  | 'TRY_LATER';

export type PadesLevel = 'B-B' | 'B-T' | 'B-LT' | 'B-LTA';

/** What the service that sealed a file records about it (no names, emails or ids). */
export interface ServiceRecord {
  sealedByThisService: true;
  status: string;
  completedAt: string | null;
  documentCount: number;
  signerCount: number;
  padesLevel: string | null;
  auditChainHead: string;
  auditChainHeadEvent: number;
  /** Only in the answer by envelope and document ids: the sealed file's SHA-256. */
  sha256?: string;
}

export interface SignatureReport {
  /** 1-based, in the order of the file's revisions. */
  index: number;
  kind: 'seal' | 'signature' | 'document-timestamp';
  field: string | null;
  indication: Indication;
  subIndication: SubIndication | null;
  /** Plain reasons, in order of importance; what the page shows first. */
  reasons: string[];
  subFilter: string;
  padesLevel: PadesLevel | null;
  /** The bytes the signature covers are the bytes that were signed. */
  intact: boolean;
  byteRange: [number, number, number, number];
  coversWholeFile: boolean;
  modifiedAfter: Modification[];
  signer: string | null;
  signerCommonName: string | null;
  issuer: string | null;
  chain: CertificateSummary[];
  rootSha256: string | null;
  trust: Trust;
  claimedTime: string | null;
  timestampTime: string | null;
  tsa: string | null;
  timestampTrust: Trust | null;
  revocationEmbedded: RevocationFinding[];
  digestAlgorithm: string | null;
  signatureAlgorithm: string | null;
  keyAlgorithm: string | null;
  keySize: number | null;
  /** When the certificates were checked: the signature's proven time (its timestamp), else the verification time. */
  validationTime: string;
  warnings: string[];
}

export interface VerificationReport {
  indication: Indication;
  subIndication: SubIndication | null;
  sha256: string;
  size: number;
  verifiedAt: string;
  signatures: SignatureReport[];
  service: ServiceRecord | null;
  /** Set when the file could not be read as a PDF. */
  error: string | null;
}

const RANK: Record<Indication, number> = { TOTAL_PASSED: 0, INDETERMINATE: 1, TOTAL_FAILED: 2 };

/** The file's verdict: its worst signature's; no signature at all is INDETERMINATE (nothing signed to check). */
export function overall(signatures: readonly SignatureReport[]): { indication: Indication; subIndication: SubIndication | null } {
  if (signatures.length === 0) return { indication: 'INDETERMINATE', subIndication: 'SIGNED_DATA_NOT_FOUND' };
  const worst = signatures.reduce((a, b) => (RANK[b.indication] > RANK[a.indication] ? b : a));
  return { indication: worst.indication, subIndication: worst.subIndication };
}

/** The command's exit code: 0 passed, 1 failed, 2 indeterminate. */
export const exitCodeOf = (indication: Indication): 0 | 1 | 2 => (indication === 'TOTAL_PASSED' ? 0 : indication === 'TOTAL_FAILED' ? 1 : 2);

/** Reads a PEM bundle into DER certificates (browser and Node: no Buffer). */
export function pemCertificates(pem: string): Uint8Array[] {
  return [...pem.matchAll(/-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g)].map((match) => {
    const binary = atob((match[1] ?? '').replace(/\s+/g, ''));
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  });
}
