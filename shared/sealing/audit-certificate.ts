/**
 * The audit certificate appended to a sealed PDF: the envelope, its signers and every audit event, on
 * A4 pages of their own with a header and "Page i of n" on each.
 *
 * Laid out in two passes: the content becomes lines grouped in blocks (a block moves to the next page
 * whole unless it is taller than a page), then the pages are drawn once their number is known.
 */
import type { PDFDocument } from 'pdf-lib';
import { rgb, type Canvas } from './draw/canvas.ts';
import type { SealDrawing } from './draw/drawing.ts';
import { layoutLine, type ShapedLine } from './text/layout.ts';
import { GREY, MARGIN, PAGE, heading, record, rows, utc, type Block, type Line } from './audit-certificate-blocks.ts';
import { sealRows, senderRows, signerBlocks } from './audit-certificate-evidence.ts';
import { drawQr, verificationLines } from './audit-certificate-qr.ts';
import type { AuditCertificateInput } from './audit-certificate-model.ts';

export type { AdoptedSignature, AuditCertificateInput, CertificateSigner, PadesLevel } from './audit-certificate-model.ts';

const BODY_TOP = PAGE.height - MARGIN - 44; // below the header
const BODY_BOTTOM = MARGIN + 24; // above the footer
const RULE = rgb(0.75, 0.75, 0.75);

/** Appends the certificate pages; returns the characters no bundled font has (drawn as boxes). */
export async function addAuditCertificate(doc: PDFDocument, input: AuditCertificateInput, drawing: SealDrawing): Promise<string[]> {
  const blocks = await layout(input);
  const pages = paginate(blocks);
  const header = await layoutLine(certificateTitle(input.organizationName ?? null), 'bold');
  const envelope = await layoutLine(`Envelope ${input.envelopeId}`, 'regular');
  for (const [i, lines] of pages.entries()) {
    const canvas = drawing.canvas(doc.addPage([PAGE.width, PAGE.height]));
    drawFrame(canvas, { header, envelope, footer: await layoutLine(`Page ${String(i + 1)} of ${String(pages.length)}`, 'regular') });
    let top = BODY_TOP;
    for (const line of lines) {
      drawLine(canvas, line, top, drawing);
      top -= line.height;
    }
  }
  return [...new Set(blocks.flat().flatMap((line) => line.cells.flatMap((cell) => cell.line.uncovered)))];
}

/** "Audit certificate", or "Acme Corp: audit certificate" for a branded envelope (a long name shortened to fit the line). */
export function certificateTitle(organization: string | null): string {
  if (!organization) return 'Audit certificate';
  const name = organization.length > 60 ? `${organization.slice(0, 59).trimEnd()}…` : organization;
  return `${name}: audit certificate`;
}

// ---------------------------------------------------------------------------------------------
// Content.

async function layout(input: AuditCertificateInput): Promise<Block[]> {
  const signerById = new Map(input.signers.map((s) => [s.id, s]));
  const several = input.documents.length > 1;
  const position = input.documents.findIndex((d) => d.thisFile === true);
  const summary = await rows([
    ['Envelope ID', input.envelopeId],
    ['Subject', input.subject ?? '(none)'],
    ...(several && position >= 0 ? [['This file', `Document ${String(position + 1)} of ${String(input.documents.length)}: ${input.documents[position]?.name ?? ''}`] as [string, string]] : []),
    ['Original SHA-256', input.originalSha256],
    ['Pages in original', String(input.originalPageCount)],
    ['Created (UTC)', utc(input.createdAt)],
    ...senderRows(input),
    ['Completed (UTC)', utc(input.completedAt)],
    ['Signature level', `PAdES ${input.padesLevel}`],
  ]);
  const documents = input.documents.map((document, i) =>
    record(several ? `${String(i + 1)}. ${document.name}${document.thisFile ? ' (this file)' : ''}` : document.name, [['SHA-256', document.sha256], ['Pages', String(document.pageCount)]]),
  );
  const signers = (await Promise.all(input.signers.map((signer) => signerBlocks(signer, input.events)))).flat().map((block) => Promise.resolve(block));
  const attachments = (input.attachments ?? []).map((a) =>
    record(a.name, [['Size', `${a.sizeBytes.toLocaleString('en-US')} bytes`], ['SHA-256', a.sha256], ['Added by', a.addedBy], ['Embedded in', `the sealed ${a.document}`]]),
  );
  const events = input.events.map((event) =>
    record(`#${String(event.seq)}  ${utc(event.timestamp)}  ${event.event}`, [
      ['Actor', actorOf(event.actor, signerById)],
      ['IP address', event.ip ?? '-'],
      ['User agent', event.userAgent ?? '-'],
    ]),
  );
  const integrity = rows([
    ...sealRows(input),
    ['Audit chain head', `event #${String(input.chainHead.seq)} ${input.chainHead.hash}`],
    ['Sealed file', 'The SHA-256 of this sealed file is recorded by the service as documentHashFinal (a file cannot contain its own hash).'],
  ]).then(async (lines) => [...lines, ...(input.verifyUrl ? await verificationLines(input.verifyUrl) : [])]);
  return [
    ...(await section('Envelope', [Promise.resolve(summary)])),
    ...(await section(`Documents (${String(input.documents.length)})`, documents)),
    ...(await section(`Signers (${String(input.signers.length)})`, signers)),
    ...(attachments.length > 0 ? await section(`Attachments (${String(attachments.length)})`, attachments) : []),
    ...(await section(`Audit trail (${String(input.events.length)} events, in order)`, events)),
    ...(await section('Integrity', [integrity])),
  ];
}

/** A heading kept on the same page as the section's first block. */
async function section(title: string, parts: Promise<Block>[]): Promise<Block[]> {
  const [first, ...rest] = await Promise.all(parts);
  return [[...(await heading(title)), ...(first ?? [])], ...rest];
}

/** `signer:<id>` as the signer's name and email; `system` as "System"; anything else as written. */
function actorOf(actor: string, signers: Map<string, AuditCertificateInput['signers'][number]>): string {
  if (actor === 'system') return 'System';
  const signer = actor.startsWith('signer:') ? signers.get(actor.slice('signer:'.length)) : undefined;
  return signer ? `${signer.name} <${signer.email}>` : actor;
}

// ---------------------------------------------------------------------------------------------
// Pages.

/** Blocks onto pages: a block that does not fit moves to a new page, and is split only if taller than a page. */
function paginate(blocks: Block[]): Line[][] {
  const room = BODY_TOP - BODY_BOTTOM;
  const pages: Line[][] = [[]];
  let used = 0;
  for (const block of blocks) {
    const height = block.reduce((sum, line) => sum + line.height, 0);
    if (used + height > room && used > 0 && height <= room) {
      pages.push([]);
      used = 0;
    }
    for (const line of block) {
      if (used + line.height > room && used > 0) {
        pages.push([]);
        used = 0;
      }
      pages.at(-1)?.push(line);
      used += line.height;
    }
  }
  return pages;
}

function drawLine(canvas: Canvas, line: Line, top: number, drawing: SealDrawing): void {
  const baseline = top - line.height + (line.height - (line.cells[0]?.size ?? 0)) / 2 + 0.25 * (line.cells[0]?.size ?? 0);
  for (const cell of line.cells) {
    canvas.text(cell.line, { x: MARGIN + cell.x, y: baseline, size: cell.size, ...(cell.color ? { color: cell.color } : {}) });
  }
  if (line.image) {
    const { png, x, width, height } = line.image;
    canvas.xobject(drawing.png(png).ref, [width, 0, 0, height, MARGIN + x, top - line.height + (line.height - height) / 2]);
  }
  if (line.qr) drawQr(canvas, line.qr, top, line.height);
  if (line.rule) {
    const y = top - line.height / 2;
    canvas.line([MARGIN, y], [PAGE.width - MARGIN, y], { width: 0.5, color: RULE });
  }
}

function drawFrame(canvas: Canvas, text: { header: ShapedLine; envelope: ShapedLine; footer: ShapedLine }): void {
  const titleY = PAGE.height - MARGIN - 16;
  // A long organisation name shrinks the title rather than running into the envelope id
  const room = PAGE.width - 2 * MARGIN - text.envelope.width * 8 - 12;
  canvas.text(text.header, { x: MARGIN, y: titleY, size: Math.min(16, room / Math.max(text.header.width, 0.001)) });
  canvas.text(text.envelope, { x: PAGE.width - MARGIN - text.envelope.width * 8, y: titleY + 4, size: 8, color: GREY });
  canvas.line([MARGIN, titleY - 10], [PAGE.width - MARGIN, titleY - 10], { width: 1, color: GREY });
  canvas.text(text.footer, { x: PAGE.width - MARGIN - text.footer.width * 8, y: MARGIN, size: 8, color: GREY });
}
