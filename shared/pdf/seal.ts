/**
 * The sealed file: the original bytes untouched, then ONE incremental update holding the drawn fields, the audit
 * certificate pages and the PAdES signature (its digest computed from the chunks as written, nothing parsed
 * back). Above B-B, revisions follow the signature: a DSS with certificates and revocation data (B-LT), then a
 * document timestamp over everything (B-LTA). The level is never silently lowered: a seal that cannot reach its
 * level fails (TimestampUnavailable, RevocationUnavailable: both retryable).
 */
import { PDFDict, PDFName, PDFString, type PDFDocument } from 'pdf-lib';
import type { DocumentSigner, RevocationSource, TimestampAuthority } from '#ports/services.ts';
import { addAuditCertificate, type AuditCertificateInput, type PadesLevel } from './certificate.ts';
import { buildCadesSignature } from './cms.ts';
import { SealDrawing } from './draw/drawing.ts';
import { addDss, collectValidationMaterial } from './dss.ts';
import { flattenFields, type FlattenItem, type UncoveredValue } from './flatten.ts';
import { trackChanges, writeUpdate, type ChangeTracker } from './incremental.ts';
import { loadPdf } from './load.ts';
import { addSignatureField, PdfFile, writeSignedUpdate } from './pades.ts';
import { assertFontFilesPresent } from './text/catalog.ts';
import { tokenCertificates } from './tsp.ts';

export type { PadesLevel } from './certificate.ts';
export const PADES_LEVELS: readonly PadesLevel[] = ['B-B', 'B-T', 'B-LT', 'B-LTA'];

/** What a level above B-B needs: a timestamp authority (B-T and up) and a revocation source (B-LT and up). */
export interface SealEvidence {
  level: PadesLevel;
  timestamps?: TimestampAuthority;
  revocation?: RevocationSource;
}

export interface SealInput {
  items: FlattenItem[];
  /** The certificate page's content; the level it prints is the one sealed at. */
  certificate: Omit<AuditCertificateInput, 'padesLevel'>;
  signer: DocumentSigner;
  signingTime: Date;
  /** Absent: B-B. */
  evidence?: SealEvidence;
}

export interface SealResult {
  bytes: Uint8Array;
  pageCount: number;
  level: PadesLevel;
  /** Characters no bundled font has, drawn as boxes: per drawn value (by index in `items`) and on the certificate. */
  uncovered: { items: UncoveredValue[]; certificate: string[] };
}

/** Bytes reserved in /Contents beyond the certificates it carries: the CMS structure and signature (B-B), a token (B-T). */
const CMS_OVERHEAD = 8192;
const TOKEN_RESERVE = 16_384;

export async function sealPdf(original: Uint8Array, input: SealInput): Promise<SealResult> {
  const level = input.evidence?.level ?? 'B-B';
  const { timestamps, revocation } = requiredServices(level, input.evidence);
  assertFontFilesPresent();
  const doc = await loadPdf(original);
  const tracker = trackChanges(doc, original);
  const drawing = new SealDrawing(doc);
  const items = await flattenFields(doc, input.items, drawing);
  const certificate = await addAuditCertificate(doc, { ...input.certificate, padesLevel: level }, drawing);
  drawing.finish();
  setModDate(doc, input.signingTime);

  const chain = await input.signer.certificateChain();
  const tokens: Uint8Array[] = [];
  const recording: TimestampAuthority | undefined = timestamps && { timestamp: async (digest) => { const token = await timestamps.timestamp(digest); tokens.push(token); return token; } };
  const contentsBytes = chain.reduce((sum, der) => sum + der.length, CMS_OVERHEAD) + (recording ? TOKEN_RESERVE : 0);
  const slot = addSignatureField(doc, {
    kind: 'signature',
    options: { signingTime: input.signingTime, reason: 'Signed by every party; sealed with the audit certificate attached', name: 'E-Signature Service', contentsBytes },
  });
  const file = new PdfFile(original);
  await writeSignedUpdate(doc, tracker, file, slot, (digest) => buildCadesSignature(input.signer, digest, { timestamps: recording }));

  if (revocation) {
    const certificates = [...chain, ...tokens.flatMap(tokenCertificates)];
    addDss(doc, await collectValidationMaterial(certificates, revocation));
    append(file, doc, tracker);
  }
  if (level === 'B-LTA' && timestamps) {
    const stamp = addSignatureField(doc, { kind: 'timestamp', contentsBytes: TOKEN_RESERVE });
    await writeSignedUpdate(doc, tracker, file, stamp, (digest) => timestamps.timestamp(digest));
  }
  return { bytes: file.bytes(), pageCount: doc.getPageCount(), level, uncovered: { items, certificate } };
}

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
