/**
 * The audit certificate appended to a sealed PDF: the envelope, its signers and every audit event, on
 * A4 pages of their own with a header and "Page i of n" on each.
 *
 * Laid out in two passes: the content becomes lines grouped in blocks (a block moves to the next page
 * whole unless it is taller than a page), then the pages are drawn once their number is known.
 */
import type { PDFDocument } from 'pdf-lib';
import { rgb, type Canvas, type Rgb } from './draw/canvas.ts';
import type { SealDrawing } from './draw/drawing.ts';
import type { TextStyle } from './text/catalog.ts';
import { layoutLine, type ShapedLine } from './text/layout.ts';
import { wrapLines } from './text/wrap.ts';

export type PadesLevel = 'B-B' | 'B-T' | 'B-LT' | 'B-LTA';

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
  /** Every document of the envelope (one today). */
  documents: { name: string; sha256: string; pageCount: number }[];
  signers: { id: string; name: string; email: string; status: string; signedAt: string | null }[];
  events: { seq: number; timestamp: string; event: string; actor: string; ip: string | null; userAgent: string | null }[];
}

const PAGE = { width: 595.28, height: 841.89 }; // A4 portrait
const MARGIN = 50;
const CONTENT_WIDTH = PAGE.width - 2 * MARGIN;
const BODY_TOP = PAGE.height - MARGIN - 44; // below the header
const BODY_BOTTOM = MARGIN + 24; // above the footer
const LEADING = 1.3;
const VALUE_X = 132; // values line up in one column across the whole certificate
const GREY = rgb(0.4, 0.4, 0.4);
const RULE = rgb(0.75, 0.75, 0.75);

interface Cell {
  x: number;
  line: ShapedLine;
  size: number;
  color?: Rgb;
}

/** One line of the certificate; `rule` draws a thin line across the content width at its middle. */
interface Line {
  height: number;
  cells: Cell[];
  rule?: boolean;
}

type Block = Line[];

/** Appends the certificate pages; returns the characters no bundled font has (drawn as boxes). */
export async function addAuditCertificate(doc: PDFDocument, input: AuditCertificateInput, drawing: SealDrawing): Promise<string[]> {
  const blocks = await layout(input);
  const pages = paginate(blocks);
  const header = await layoutLine('Audit certificate', 'bold');
  const envelope = await layoutLine(`Envelope ${input.envelopeId}`, 'regular');
  for (const [i, lines] of pages.entries()) {
    const canvas = drawing.canvas(doc.addPage([PAGE.width, PAGE.height]));
    drawFrame(canvas, { header, envelope, footer: await layoutLine(`Page ${String(i + 1)} of ${String(pages.length)}`, 'regular') });
    let top = BODY_TOP;
    for (const line of lines) {
      drawLine(canvas, line, top);
      top -= line.height;
    }
  }
  return [...new Set(blocks.flat().flatMap((line) => line.cells.flatMap((cell) => cell.line.uncovered)))];
}

// ---------------------------------------------------------------------------------------------
// Content.

async function layout(input: AuditCertificateInput): Promise<Block[]> {
  const signerById = new Map(input.signers.map((s) => [s.id, s]));
  const summary = await rows([
    ['Envelope ID', input.envelopeId],
    ['Subject', input.subject ?? '(none)'],
    ['Original SHA-256', input.originalSha256],
    ['Pages in original', String(input.originalPageCount)],
    ['Created (UTC)', utc(input.createdAt)],
    ['Completed (UTC)', utc(input.completedAt)],
    ['Signature level', `PAdES ${input.padesLevel}`],
  ]);
  const documents = input.documents.map((document) =>
    record(document.name, [['SHA-256', document.sha256], ['Pages', String(document.pageCount)]]),
  );
  const signers = input.signers.map((signer) =>
    record(signer.name, [
      ['Email', signer.email],
      ['Status', signer.status],
      ['Signed at (UTC)', signer.signedAt ? utc(signer.signedAt) : '-'],
    ]),
  );
  const events = input.events.map((event) =>
    record(`#${String(event.seq)}  ${utc(event.timestamp)}  ${event.event}`, [
      ['Actor', actorOf(event.actor, signerById)],
      ['IP address', event.ip ?? '-'],
      ['User agent', event.userAgent ?? '-'],
    ]),
  );
  const integrity = rows([
    ['Audit chain head', `event #${String(input.chainHead.seq)} ${input.chainHead.hash}`],
    ['Sealed file', 'The SHA-256 of this sealed file is recorded by the service as documentHashFinal (a file cannot contain its own hash).'],
  ]);
  return [
    ...(await section('Envelope', [Promise.resolve(summary)])),
    ...(await section(`Documents (${String(input.documents.length)})`, documents)),
    ...(await section(`Signers (${String(input.signers.length)})`, signers)),
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

/** ISO 8601 in UTC ("Z"); a value that is not a date is shown as given. */
function utc(timestamp: string): string {
  const date = new Date(timestamp);
  return Number.isNaN(date.getTime()) ? timestamp : date.toISOString();
}

async function heading(text: string): Promise<Block> {
  const size = 12;
  const lines = await wrap(text, 'bold', size, CONTENT_WIDTH);
  return [{ height: 10, cells: [] }, ...lines.map((line) => ({ height: size * LEADING, cells: [{ x: 0, line, size }] })), { height: 6, cells: [], rule: true }];
}

/** A bold title line, then label/value rows, then a little space. */
async function record(title: string, pairs: [string, string][]): Promise<Block> {
  const size = 9;
  const titleLines = await wrap(title, 'bold', size, CONTENT_WIDTH);
  const head = titleLines.map((line) => ({ height: size * LEADING, cells: [{ x: 0, line, size }] }));
  return [...head, ...(await rows(pairs, 12)), { height: 5, cells: [] }];
}

/** Label/value rows: the label in grey on the left, the value wrapped in the column beside it. */
async function rows(pairs: [string, string][], indent = 0): Promise<Line[]> {
  const size = 8.5;
  const lines: Line[] = [];
  for (const [label, value] of pairs) {
    const valueLines = await wrap(value, 'regular', size, CONTENT_WIDTH - VALUE_X);
    const labelLine = await layoutLine(label, 'regular');
    valueLines.forEach((line, i) => {
      const value: Cell = { x: VALUE_X, line, size };
      // Label first: text extraction and copy-paste follow the drawing order.
      lines.push({ height: size * LEADING, cells: i === 0 ? [{ x: indent, line: labelLine, size, color: GREY }, value] : [value] });
    });
  }
  return lines;
}

/** Wrapped lines, at least one (an empty value still gets its row). */
async function wrap(text: string, style: TextStyle, size: number, width: number): Promise<ShapedLine[]> {
  const lines = await wrapLines(text, style, size, width);
  return lines.length > 0 ? lines : [await layoutLine('', style)];
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

function drawLine(canvas: Canvas, line: Line, top: number): void {
  const baseline = top - line.height + (line.height - (line.cells[0]?.size ?? 0)) / 2 + 0.25 * (line.cells[0]?.size ?? 0);
  for (const cell of line.cells) {
    canvas.text(cell.line, { x: MARGIN + cell.x, y: baseline, size: cell.size, ...(cell.color ? { color: cell.color } : {}) });
  }
  if (line.rule) {
    const y = top - line.height / 2;
    canvas.line([MARGIN, y], [PAGE.width - MARGIN, y], { width: 0.5, color: RULE });
  }
}

function drawFrame(canvas: Canvas, text: { header: ShapedLine; envelope: ShapedLine; footer: ShapedLine }): void {
  const titleY = PAGE.height - MARGIN - 16;
  canvas.text(text.header, { x: MARGIN, y: titleY, size: 16 });
  canvas.text(text.envelope, { x: PAGE.width - MARGIN - text.envelope.width * 8, y: titleY + 4, size: 8, color: GREY });
  canvas.line([MARGIN, titleY - 10], [PAGE.width - MARGIN, titleY - 10], { width: 1, color: GREY });
  canvas.text(text.footer, { x: PAGE.width - MARGIN - text.footer.width * 8, y: MARGIN, size: 8, color: GREY });
}
