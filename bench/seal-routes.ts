/**
 * The two ways of sealing the bench compares, on the same document and the same values:
 * - ours: `sealPdf` (shared/sealing/seal.ts), called only through `sealOurs` so a change of its input is a one-line fix;
 * - the @signpdf route: pdf-lib draws the same values and the same certificate lines, @signpdf/placeholder-pdf-lib
 *   adds the signature field, pdf-lib saves the whole file again, @signpdf/signpdf signs with @signpdf/signer-p12.
 */
import { PNG } from 'pngjs';
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFImage, type PDFPage } from 'pdf-lib';
import { pdflibAddPlaceholder } from '@signpdf/placeholder-pdf-lib';
import { SignPdf } from '@signpdf/signpdf';
import { P12Signer } from '@signpdf/signer-p12';
import type { AuditCertificateInput } from '#shared/sealing/audit-certificate.ts';
import type { FlattenItem } from '#shared/sealing/flatten.ts';
import { sealPdf, type SealResult } from '#shared/sealing/seal.ts';
import type { DocumentSigner } from '#shared/ports/services.ts';

const SIGNING_TIME = new Date('2026-01-15T12:00:00Z');

/**
 * THE adapter: the one call of sealPdf in the bench. It answers the sealed file as the service stores it: the
 * original and the update's chunks, streamed by the blob store's put without a joined copy (`.bytes` joins them).
 */
export function sealOurs(pdf: Uint8Array, pageCount: number, signer: DocumentSigner): Promise<SealResult> {
  return sealPdf(pdf, { items: fieldItems(pageCount), certificate: certificateInput(), signer, signingTime: SIGNING_TIME });
}

const signPdf = new SignPdf();

export async function sealPeer(pdf: Uint8Array, pageCount: number, p12: Uint8Array): Promise<Uint8Array> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const script = await doc.embedFont(StandardFonts.HelveticaOblique);
  const images = new Map<Uint8Array, PDFImage>();
  for (const item of fieldItems(pageCount)) {
    const page = doc.getPage(item.page - 1);
    const { x, y, width, height } = item.rect;
    const value = item.value;
    if (value.kind === 'image') {
      let image = images.get(value.png);
      if (!image) images.set(value.png, (image = await doc.embedPng(value.png)));
      const scale = Math.min(width / image.width, height / image.height);
      page.drawImage(image, { x, y, width: image.width * scale, height: image.height * scale });
    } else if (value.kind === 'checkbox') {
      if (value.checked) page.drawText('X', { x: x + 2, y: y + 2, size: Math.min(height, 12), font: regular });
    } else {
      const text = value.kind === 'date' ? value.date : value.text;
      page.drawText(text, { x: x + 2, y: y + 4, size: Math.min(height - 4, 12), font: value.kind === 'typed' ? script : regular, color: rgb(0.08, 0.12, 0.4) });
    }
  }
  drawCertificate(doc, regular);
  pdflibAddPlaceholder({ pdfDoc: doc, reason: 'Signed by every party', contactInfo: 'bench@example.com', name: 'E-Signature Service', location: 'bench', signingTime: SIGNING_TIME });
  const unsigned = await doc.save({ useObjectStreams: false });
  return new Uint8Array(await signPdf.sign(Buffer.from(unsigned.buffer, unsigned.byteOffset, unsigned.byteLength), new P12Signer(Buffer.from(p12)), SIGNING_TIME));
}

/** The certificate's lines on A4 pages, in a standard font (the peer embeds no font: less work than ours does). */
function drawCertificate(doc: PDFDocument, font: PDFFont): void {
  const c = certificateInput();
  const lines = [
    'Audit certificate', `Envelope ${c.envelopeId}`, `Subject ${c.subject ?? ''}`, `Original SHA-256 ${c.originalSha256}`,
    ...c.signers.map((s) => `${s.name} <${s.email}> ${s.status} ${s.signedAt ?? ''}`),
    ...c.events.map((e) => `${String(e.seq)} ${e.timestamp} ${e.event} ${e.actor} ${e.ip ?? ''} ${e.userAgent ?? ''}`),
    `Chain head as of sealing: event #${String(c.chainHead.seq)} ${c.chainHead.hash}`,
  ];
  let page: PDFPage | undefined;
  let y = 0;
  for (const line of lines) {
    if (!page || y < 60) { page = doc.addPage([595.28, 841.89]); y = 780; }
    page.drawText(line.slice(0, 110), { x: 50, y, size: 9, font });
    y -= 13;
  }
}

let signaturePng: Uint8Array | undefined;

/** A drawn signature as the signing page sends it: a 360 x 100 RGBA PNG with a stroke across it. */
export function drawnSignature(): Uint8Array {
  if (signaturePng) return signaturePng;
  const png = new PNG({ width: 360, height: 100 });
  for (let x = 0; x < 360; x++) {
    const cy = Math.round(50 + 30 * Math.sin(x / 25));
    for (let y = cy - 2; y <= cy + 2; y++) {
      const at = (y * 360 + x) * 4;
      png.data[at] = 20; png.data[at + 1] = 30; png.data[at + 2] = 100; png.data[at + 3] = 255;
    }
  }
  return (signaturePng = new Uint8Array(PNG.sync.write(png)));
}

/** Two signers' values: a drawn signature, a typed one, a text, a date and a checkbox each, on the first and last pages. */
export function fieldItems(pageCount: number): FlattenItem[] {
  return [0, 1].flatMap((i): FlattenItem[] => {
    const page = i === 0 ? 1 : pageCount;
    const y = 100 + i * 200;
    const at = (dx: number, dy: number, width: number, height: number) => ({ x: 72 + dx, y: y + dy, width, height });
    return [
      { page, rotate: 0, rect: at(0, 0, 180, 50), value: { kind: 'image', png: drawnSignature() } },
      { page, rotate: 0, rect: at(220, 0, 200, 40), value: { kind: 'typed', text: i === 0 ? 'Ana Silva' : 'Ben Okafor', fontLabel: 'Dancing Script' } },
      { page, rotate: 0, rect: at(0, 70, 200, 18), value: { kind: 'text', text: 'ACME Corp.' } },
      { page, rotate: 0, rect: at(220, 70, 100, 18), value: { kind: 'date', date: '2026-01-15' } },
      { page, rotate: 0, rect: at(340, 70, 14, 14), value: { kind: 'checkbox', checked: true } },
    ];
  });
}

export function certificateInput(): Omit<AuditCertificateInput, 'padesLevel'> {
  const signers = [
    { id: '0190f0a0-0000-7000-8000-000000000001', name: 'Ana Silva', email: 'ana@example.com', status: 'signed', signedAt: '2026-01-15T11:58:00Z' },
    { id: '0190f0a0-0000-7000-8000-000000000002', name: 'Ben Okafor', email: 'ben@example.com', status: 'signed', signedAt: '2026-01-15T11:59:00Z' },
  ];
  const kinds = ['envelope.created', 'envelope.sent', 'signer.invited', 'signer.invited', 'signer.viewed', 'signer.consented', 'signer.signed', 'signer.viewed', 'signer.consented', 'signer.signed'];
  return {
    envelopeId: '0190f0a0-0000-7000-8000-000000000000', subject: 'Service agreement', originalSha256: 'a'.repeat(64), originalPageCount: 1,
    createdAt: '2026-01-15T11:50:00Z', completedAt: SIGNING_TIME.toISOString(), chainHead: { seq: 10, hash: 'b'.repeat(64) }, signers,
    documents: [{ name: 'agreement.pdf', sha256: 'a'.repeat(64), pageCount: 1 }],
    events: kinds.map((event, i) => ({
      seq: i + 1, timestamp: `2026-01-15T11:${String(50 + i).padStart(2, '0')}:00Z`, event, actor: i < 2 ? 'app:bench' : `signer:${signers[i % 2]?.id ?? ''}`,
      ip: '203.0.113.7', userAgent: 'Mozilla/5.0 (X11; Linux x86_64) bench',
    })),
  };
}
