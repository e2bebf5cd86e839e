/**
 * The audit certificate appended to a sealed PDF: the envelope, its signers and every audit event, on
 * A4 pages of their own with a header and "Page i of n" on each.
 *
 * Laid out in two passes: the content becomes lines grouped in blocks (a block moves to the next page
 * whole unless it is taller than a page), then the pages are drawn once their number is known.
 */
import { rgb, type Color, type PDFDocument, type PDFPage } from 'pdf-lib';
import { drawRuns, widthOf, wrapText, type FontChain, type FontSet, type TextRun } from './fonts.ts';

export interface AuditCertificateInput {
  envelopeId: string;
  subject: string | null;
  originalSha256: string;
  originalPageCount: number;
  createdAt: string;
  completedAt: string;
  chainHead: string;
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
  runs: TextRun[];
  size: number;
  color?: Color;
}

/** One line of the certificate; `rule` draws a thin line across the content width at its middle. */
interface Line {
  height: number;
  cells: Cell[];
  rule?: boolean;
}

type Block = Line[];

interface Fonts {
  regular: FontChain;
  bold: FontChain;
}

export async function addAuditCertificate(doc: PDFDocument, input: AuditCertificateInput, fonts: FontSet): Promise<void> {
  const blocks = await layout(input, fonts);
  const pages = paginate(blocks);
  const header = await fonts.bold.runs('Audit certificate');
  const envelope = await fonts.regular.runs(`Envelope ${input.envelopeId}`);
  for (const [i, lines] of pages.entries()) {
    const page = doc.addPage([PAGE.width, PAGE.height]);
    drawFrame(page, { header, envelope, footer: await fonts.regular.runs(`Page ${String(i + 1)} of ${String(pages.length)}`) });
    let top = BODY_TOP;
    for (const line of lines) {
      drawLine(page, line, top);
      top -= line.height;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Content.

async function layout(input: AuditCertificateInput, fonts: Fonts): Promise<Block[]> {
  const signerById = new Map(input.signers.map((s) => [s.id, s]));
  const summary = await rows(fonts, [
    ['Envelope ID', input.envelopeId],
    ['Subject', input.subject ?? '(none)'],
    ['Original SHA-256', input.originalSha256],
    ['Pages in original', String(input.originalPageCount)],
    ['Created (UTC)', utc(input.createdAt)],
    ['Completed (UTC)', utc(input.completedAt)],
  ]);
  const signers = input.signers.map((signer) =>
    record(fonts, signer.name, [
      ['Email', signer.email],
      ['Status', signer.status],
      ['Signed at (UTC)', signer.signedAt ? utc(signer.signedAt) : '-'],
    ]),
  );
  const events = input.events.map((event) =>
    record(fonts, `#${String(event.seq)}  ${utc(event.timestamp)}  ${event.event}`, [
      ['Actor', actorOf(event.actor, signerById)],
      ['IP address', event.ip ?? '-'],
      ['User agent', event.userAgent ?? '-'],
    ]),
  );
  const integrity = rows(fonts, [
    ['Audit chain head', input.chainHead],
    ['Sealed file', 'The SHA-256 of this sealed file is recorded by the service as documentHashFinal (a file cannot contain its own hash).'],
  ]);
  return [
    ...(await section(fonts, 'Envelope', [Promise.resolve(summary)])),
    ...(await section(fonts, `Signers (${String(input.signers.length)})`, signers)),
    ...(await section(fonts, `Audit trail (${String(input.events.length)} events, in order)`, events)),
    ...(await section(fonts, 'Integrity', [integrity])),
  ];
}

/** A heading kept on the same page as the section's first block. */
async function section(fonts: Fonts, title: string, parts: Promise<Block>[]): Promise<Block[]> {
  const [first, ...rest] = await Promise.all(parts);
  return [[...(await heading(fonts, title)), ...(first ?? [])], ...rest];
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

async function heading(fonts: Fonts, text: string): Promise<Block> {
  const size = 12;
  const lines = await wrapText(fonts.bold, text, size, CONTENT_WIDTH);
  return [{ height: 10, cells: [] }, ...lines.map((runs) => ({ height: size * LEADING, cells: [{ x: 0, runs, size }] })), { height: 6, cells: [], rule: true }];
}

/** A bold title line, then label/value rows, then a little space. */
async function record(fonts: Fonts, title: string, pairs: [string, string][]): Promise<Block> {
  const size = 9;
  const titleLines = await wrapText(fonts.bold, title, size, CONTENT_WIDTH);
  const head = titleLines.map((runs) => ({ height: size * LEADING, cells: [{ x: 0, runs, size }] }));
  return [...head, ...(await rows(fonts, pairs, 12)), { height: 5, cells: [] }];
}

/** Label/value rows: the label in grey on the left, the value wrapped in the column beside it. */
async function rows(fonts: Fonts, pairs: [string, string][], indent = 0): Promise<Line[]> {
  const size = 8.5;
  const lines: Line[] = [];
  for (const [label, value] of pairs) {
    const valueLines = await wrapText(fonts.regular, value, size, CONTENT_WIDTH - VALUE_X);
    const labelRuns = await fonts.regular.runs(label);
    valueLines.forEach((runs, i) => {
      const value: Cell = { x: VALUE_X, runs, size };
      // Label first: text extraction and copy-paste follow the drawing order.
      lines.push({ height: size * LEADING, cells: i === 0 ? [{ x: indent, runs: labelRuns, size, color: GREY }, value] : [value] });
    });
  }
  return lines;
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

function drawLine(page: PDFPage, line: Line, top: number): void {
  const baseline = top - line.height + (line.height - (line.cells[0]?.size ?? 0)) / 2 + 0.25 * (line.cells[0]?.size ?? 0);
  for (const cell of line.cells) {
    drawRuns(page, cell.runs, { x: MARGIN + cell.x, y: baseline, size: cell.size, ...(cell.color ? { color: cell.color } : {}) });
  }
  if (line.rule) {
    const y = top - line.height / 2;
    page.drawLine({ start: { x: MARGIN, y }, end: { x: PAGE.width - MARGIN, y }, thickness: 0.5, color: RULE });
  }
}

function drawFrame(page: PDFPage, text: { header: TextRun[]; envelope: TextRun[]; footer: TextRun[] }): void {
  const titleY = PAGE.height - MARGIN - 16;
  drawRuns(page, text.header, { x: MARGIN, y: titleY, size: 16 });
  const envelopeWidth = widthOf(text.envelope, 8);
  drawRuns(page, text.envelope, { x: PAGE.width - MARGIN - envelopeWidth, y: titleY + 4, size: 8, color: GREY });
  page.drawLine({ start: { x: MARGIN, y: titleY - 10 }, end: { x: PAGE.width - MARGIN, y: titleY - 10 }, thickness: 1, color: GREY });
  const footerWidth = widthOf(text.footer, 8);
  drawRuns(page, text.footer, { x: PAGE.width - MARGIN - footerWidth, y: MARGIN, size: 8, color: GREY });
}
