/**
 * The sealed file: the original bytes untouched, then ONE incremental update holding the drawn fields, the audit
 * certificate pages and the PAdES signature (its digest computed from the chunks as written, nothing parsed
 * back). Above B-B, revisions follow the signature: a DSS with certificates and revocation data (B-LT), then a
 * document timestamp over everything (B-LTA). The level is never silently lowered: a seal that cannot reach its
 * level fails (TimestampUnavailable, RevocationUnavailable: both retryable).
 */
import { PDFDict, PDFName, PDFString, type PDFDocument } from 'pdf-lib';
import type { DocumentSigner, RevocationSource, TimestampAuthority } from '#shared/ports/services.ts';
import { addAuditCertificate, type AuditCertificateInput, type PadesLevel } from './audit-certificate.ts';
import { buildCadesSignature } from '../pki/cms.ts';
import { SealDrawing } from './draw/drawing.ts';
import { addDss, collectValidationMaterial } from '../pki/dss.ts';
import { earlierSignatureCertificates } from '../pki/earlier-signatures.ts';
import { flattenFields, type FlattenItem, type UncoveredValue } from './flatten.ts';
import { embedAttachments, type AttachedFile } from './attached-files.ts';
import { trackChanges, writeUpdate, type ChangeTracker } from './incremental.ts';
import { loadPdfForUpdate } from '../pdf/lazy-load.ts';
import { addSignatureField, PdfFile, SignatureTooLargeError, writeSignedUpdate, type WrittenFile } from './pades.ts';
import { assertFontFilesPresent } from './text/catalog.ts';
import { tokenCertificates, tstInfoOf } from '../pki/tsp.ts';

export type { PadesLevel } from './audit-certificate.ts';
export { OriginalMismatch } from './pades.ts';
export const PADES_LEVELS: readonly PadesLevel[] = ['B-B', 'B-T', 'B-LT', 'B-LTA'];

/** What a level above B-B needs: a timestamp authority (B-T and up) and a revocation source (B-LT and up). */
export interface SealEvidence {
  level: PadesLevel;
  timestamps?: TimestampAuthority;
  revocation?: RevocationSource;
  /** Revocation data must be issued this long after the signature timestamp (0 to 120; default 0); the seal waits that long before fetching it. */
  revocationGraceSeconds?: number;
  /** How the seal waits out the grace period (a test passes one that does not sleep). */
  sleep?: (ms: number) => Promise<void>;
}

export interface SealInput {
  items: FlattenItem[];
  /** The certificate page's content; the level it prints is the one sealed at. */
  certificate: Omit<AuditCertificateInput, 'padesLevel'>;
  signer: DocumentSigner;
  signingTime: Date;
  /** Absent: B-B. */
  evidence?: SealEvidence;
  /** Signers' files, embedded before the signature (attached-files.ts). */
  attachments?: AttachedFile[];
  /** The original's SHA-256 (hex) as its record names it: checked on the seal's own pass over the bytes, before signing (OriginalMismatch). */
  originalSha256?: string;
}

export interface SealResult extends WrittenFile {
  pageCount: number;
  level: PadesLevel;
  /** Characters no bundled font has, drawn as boxes: per drawn value (by index in `items`) and on the certificate. */
  uncovered: { items: UncoveredValue[]; certificate: string[] };
}

/**
 * Bytes reserved in /Contents beyond the certificates it carries: the CMS structure, signed attributes and a
 * signature value of up to 4096 bits take about 1.3 KB. Every reserved byte is written twice (hex) into each file.
 */
const CMS_OVERHEAD = 2048;
/** A timestamp token from an authority not seen yet: its size is unknown (its chain may be long). */
const FIRST_TOKEN_RESERVE = 16_384;
/** Room above the largest token an authority gave so far (a longer nonce, serial or name). */
const TOKEN_MARGIN = 512;
/** Per authority (one per container), the largest token it returned: the next seals reserve just that. */
const tokenSizes = new WeakMap<TimestampAuthority, number>();

const tokenReserve = (authority: TimestampAuthority, learned: boolean): number => {
  const seen = learned ? tokenSizes.get(authority) : undefined;
  return seen === undefined ? FIRST_TOKEN_RESERVE : seen + TOKEN_MARGIN;
};

/** An authority that remembers the size of every token it gives, and keeps them in `tokens`. */
function recorded(authority: TimestampAuthority, tokens: Uint8Array[]): TimestampAuthority {
  return {
    timestamp: async (digest) => {
      const token = await authority.timestamp(digest);
      tokenSizes.set(authority, Math.max(tokenSizes.get(authority) ?? 0, token.length));
      tokens.push(token);
      return token;
    },
  };
}

/**
 * Seals with /Contents sized to what the seal needs; should an authority's token outgrow what it gave before (a new
 * TSA certificate, a longer chain), the seal is made once more with the first-use reserve.
 */
export async function sealPdf(original: Uint8Array, input: SealInput): Promise<SealResult> {
  try {
    return await sealOnce(original, input, true);
  } catch (error) {
    if (error instanceof SignatureTooLargeError) return sealOnce(original, input, false);
    throw error;
  }
}

async function sealOnce(original: Uint8Array, input: SealInput, learned: boolean): Promise<SealResult> {
  const level = input.evidence?.level ?? 'B-B';
  const { timestamps, revocation } = requiredServices(level, input.evidence);
  assertFontFilesPresent();
  const doc = await loadPdfForUpdate(original);
  const earlier = revocation ? earlierSignatureCertificates(doc) : [];
  const tracker = trackChanges(doc, original);
  const drawing = new SealDrawing(doc);
  const items = await flattenFields(doc, input.items, drawing);
  embedAttachments(doc, input.attachments ?? []);
  const certificate = await addAuditCertificate(doc, { ...input.certificate, padesLevel: level }, drawing);
  drawing.finish();
  setModDate(doc, input.signingTime);

  const chain = await input.signer.certificateChain();
  const tokens: Uint8Array[] = [];
  const recording = timestamps && recorded(timestamps, tokens);
  const contentsBytes = chain.reduce((sum, der) => sum + der.length, CMS_OVERHEAD) + (timestamps ? tokenReserve(timestamps, learned) : 0);
  const slot = addSignatureField(doc, {
    kind: 'signature',
    options: { signingTime: input.signingTime, reason: 'Signed by every party; sealed with the audit certificate attached', name: 'E-Signature Service', contentsBytes },
  });
  const file = new PdfFile(original, input.originalSha256);
  await writeSignedUpdate(doc, tracker, file, slot, (digest) => buildCadesSignature(input.signer, digest, { timestamps: recording }));

  if (revocation) {
    const certificates = [...chain, ...tokens.flatMap(tokenCertificates)];
    const issuedAfter = await revocationTime(tokens[0], input.evidence);
    addDss(doc, await collectValidationMaterial(certificates, revocation, { issuedAfter, earlier }));
    append(file, doc, tracker);
  }
  if (level === 'B-LTA' && timestamps) {
    const stamp = addSignatureField(doc, { kind: 'timestamp', contentsBytes: tokenReserve(timestamps, learned) });
    await writeSignedUpdate(doc, tracker, file, stamp, (digest) => recorded(timestamps, tokens).timestamp(digest));
  }
  // Assigned onto the written file, whose joined bytes are a getter (a spread would join them).
  return Object.assign(file.written(), { pageCount: doc.getPageCount(), level, uncovered: { items, certificate } });
}

/**
 * When the DSS's revocation data must be issued: at or after the signature timestamp's genTime plus the grace
 * period, and the seal waits until then. Strict validators only accept revocation data issued after the
 * best-signature-time; the grace gives a revocation made just before signing time to reach the CA's CRL or OCSP.
 */
async function revocationTime(token: Uint8Array | undefined, evidence: SealEvidence | undefined): Promise<Date | undefined> {
  if (!token) return undefined;
  const graceMs = (evidence?.revocationGraceSeconds ?? 0) * 1000;
  const at = new Date(tstInfoOf(token).genTime.getTime() + graceMs);
  const wait = Math.min(at.getTime() - Date.now(), graceMs); // never longer than the grace, whatever the TSA's clock says
  if (wait > 0) await (evidence?.sleep ?? sleepFor)(wait);
  return at;
}

const sleepFor = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function requiredServices(level: PadesLevel, evidence: SealEvidence | undefined): { timestamps?: TimestampAuthority; revocation?: RevocationSource } {
  const rank = PADES_LEVELS.indexOf(level);
  if (rank < 0) throw new RangeError(`Unknown PAdES level ${level}`);
  if (rank >= 1 && !evidence?.timestamps) throw new Error(`PAdES ${level} needs a timestamp authority`);
  if (rank >= 2 && !evidence?.revocation) throw new Error(`PAdES ${level} needs a revocation source`);
  return { ...(rank >= 1 ? { timestamps: evidence?.timestamps } : {}), ...(rank >= 2 ? { revocation: evidence?.revocation } : {}) };
}

function append(file: PdfFile, doc: PDFDocument, tracker: ChangeTracker): void {
  const update = writeUpdate(doc, tracker);
  if (update) file.append(update.chunks);
}

/** The Info dictionary's ModDate says when our revision was made (created when the file has none). */
function setModDate(doc: PDFDocument, at: Date): void {
  const { context } = doc;
  let info = context.lookupMaybe(context.trailerInfo.Info, PDFDict);
  if (!info) {
    info = context.obj({});
    context.trailerInfo.Info = context.register(info);
  }
  info.set(PDFName.of('ModDate'), PDFString.fromDate(at));
}
