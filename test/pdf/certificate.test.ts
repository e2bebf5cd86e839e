import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addAuditCertificate, type AuditCertificateInput } from '#shared/sealing/audit-certificate.ts';
import { SealDrawing } from '#shared/sealing/draw/drawing.ts';
import { loadPdf } from '#shared/pdf/load.ts';
import { PNG } from 'pngjs';
import { makePdf } from '#test/support/pdfs.ts';

interface Word { text: string; xMin: number; yMin: number; xMax: number; yMax: number }
interface Page { width: number; height: number; words: Word[] }

function tempFile(bytes: Uint8Array): string {
  const file = join(mkdtempSync(join(tmpdir(), 'certificate-test-')), 'out.pdf');
  writeFileSync(file, bytes);
  return file;
}

const unescape = (text: string): string => text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');

/** Every page's size and word boxes, from pdftotext -bbox. */
function pages(pdf: Uint8Array): Page[] {
  const html = execFileSync('pdftotext', ['-bbox', tempFile(pdf), '-'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return html.split('<page ').slice(1).map((chunk) => {
    const [, width, height] = /width="([\d.]+)" height="([\d.]+)"/.exec(chunk) ?? [];
    const words = [...chunk.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)].map((m) => ({
      xMin: Number(m[1]), yMin: Number(m[2]), xMax: Number(m[3]), yMax: Number(m[4]), text: unescape(m[5]!),
    }));
    return { width: Number(width), height: Number(height), words };
  });
}

const textOf = (page: Page): string => page.words.map((w) => w.text).join(' ');

/** The certificate pages' text line by line (pdftotext -layout), whitespace collapsed: "Label value" reads as drawn. */
function certificateText(pdf: Uint8Array, firstPage: number): string {
  const text = execFileSync('pdftotext', ['-layout', '-f', String(firstPage), tempFile(pdf), '-'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return text.replace(/\s+/g, ' ');
}

const IPV6 = '2001:0db8:85a3:0000:0000:8a2e:0370:7334';
const LONG_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.0.0 ' +
  Array.from({ length: 30 }, (_, i) => `Extension${String(i)}/1.${String(i)}`).join(' ');
const EVENT_NAMES = ['envelope.created', 'envelope.sent', 'signer.invited', 'signer.viewed', 'signer.otp_requested', 'signer.otp_verified', 'signer.consented', 'signer.signed', 'document.purge_reminder_sent'];

/** A 240x80 "drawn signature": a dark diagonal stroke on transparent pixels. */
function strokePng(): Uint8Array {
  const png = new PNG({ width: 240, height: 80 });
  for (let x = 0; x < 240; x++) {
    for (let dy = -2; dy <= 2; dy++) {
      const y = Math.round(70 - (x / 240) * 60 + 8 * Math.sin(x / 12)) + dy;
      if (y < 0 || y >= 80) continue;
      png.data.set([20, 30, 100, 255], (y * 240 + x) * 4);
    }
  }
  return new Uint8Array(PNG.sync.write(png));
}

function input(eventCount: number): AuditCertificateInput {
  return {
    envelopeId: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
    subject: 'Mutual NDA — Łódź / 北京',
    originalSha256: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
    originalPageCount: 2,
    createdAt: '2024-05-01T08:00:00.000Z',
    completedAt: '2024-05-02T09:31:00.123Z',
    chainHead: { seq: 14, hash: 'c0ffee0000000000000000000000000000000000000000000000000000c0ffee' },
    padesLevel: 'B-LTA',
    documents: [{ name: 'Mutual NDA.pdf', sha256: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08', pageCount: 2, thisFile: true }],
    sender: { createdBy: 'Anna Schmidt (legal)', appId: 'crm-prod', sentAt: '2024-05-01T08:05:00.000Z' },
    cc: [{ name: 'Zoë Ångström', email: 'zoe@example.se' }, { name: '山田 太郎', email: 'yamada@example.jp' }],
    seal: { subject: 'CN=Acme Document Seal, O=Acme GmbH, C=DE', timestampAuthority: 'tsa.example.net' },
    signers: [
      {
        id: 's1', name: 'Łukasz Nowak', email: 'lukasz@example.pl', status: 'signed', signedAt: '2024-05-01T10:00:00.000Z',
        authMethod: 'sms_otp', phone: '+49 151 2345 6712', consentVersion: '2026-01', adopted: [{ field: 'signature', kind: 'image', png: strokePng(), source: 'drawn' }],
      },
      {
        id: 's2', name: '王小明', email: 'wang@example.cn', status: 'signed', signedAt: '2024-05-01T11:00:00.000Z',
        authMethod: 'email_otp', phone: null, consentVersion: null,
        adopted: [{ field: 'signature', kind: 'typed', text: 'Wang Xiaoming', fontLabel: 'Great Vibes' }, { field: 'initial', kind: 'typed', text: 'WX', fontLabel: 'Caveat' }],
      },
      { id: 's3', name: 'Дмитрий Ωμέγα', email: 'dmitri@example.ru', status: 'declined', signedAt: null, authMethod: 'none', phone: null, consentVersion: null, adopted: [] },
    ],
    events: Array.from({ length: eventCount }, (_, i) => ({
      seq: i + 1,
      timestamp: new Date(Date.UTC(2024, 4, 1, 9, 0, 0) + i * 61_000).toISOString(),
      event: EVENT_NAMES[i % EVENT_NAMES.length]!,
      actor: i % 4 === 0 ? 'system' : `signer:s${String((i % 3) + 1)}`,
      ip: i % 2 === 0 ? IPV6 : '203.0.113.7',
      userAgent: i % 5 === 0 ? null : LONG_UA,
    })),
  };
}

async function withCertificate(original: Uint8Array, certificate: AuditCertificateInput): Promise<Uint8Array> {
  const doc = await loadPdf(original);
  const drawing = new SealDrawing(doc);
  await addAuditCertificate(doc, certificate, drawing);
  drawing.finish();
  return doc.save();
}

describe('addAuditCertificate', () => {
  it('appends A4 pages after the original ones, each with the title and "Page i of n"', async () => {
    const all = pages(await withCertificate(await makePdf({ pages: 2, size: [612, 792] }), input(120)));
    const certificate = all.slice(2);
    expect(all.slice(0, 2).every((p) => p.width === 612 && p.words.length === 0)).toBe(true);
    expect(certificate.length).toBeGreaterThanOrEqual(4);
    certificate.forEach((page, i) => {
      expect([Math.round(page.width), Math.round(page.height)]).toEqual([595, 842]);
      expect(textOf(page)).toContain('Audit certificate');
      expect(textOf(page)).toContain(`Page ${String(i + 1)} of ${String(certificate.length)}`);
    });
  });

  it('lists every audit event once, in order, with its UTC time, name, actor, IP and user agent', async () => {
    const data = input(120);
    const text = certificateText(await withCertificate(await makePdf(), data), 2);
    let from = 0;
    for (const event of data.events) {
      const at = text.indexOf(`#${String(event.seq)} ${event.timestamp} ${event.event}`, from);
      expect(at, `event #${String(event.seq)}`).toBeGreaterThan(from - 1);
      from = at + 1;
    }
    const trail = text.slice(text.indexOf('Audit trail'));
    expect(trail.split(IPV6).length - 1).toBe(60); // never broken across lines
    expect(trail.split('Extension29/1.29').length - 1).toBe(96); // the whole user agent, wrapped
    expect(text).toContain('Actor System');
    expect(text).toContain('Actor Łukasz Nowak <lukasz@example.pl>');
    expect(text).toContain('Actor 王小明 <wang@example.cn>');
  });

  it('shows the envelope, the signers in any script, the chain head and the final-hash note', async () => {
    const text = certificateText(await withCertificate(await makePdf(), input(3)), 2);
    for (const expected of [
      'Envelope ID 0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
      'Subject Mutual NDA — Łódź / 北京',
      'Original SHA-256 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
      'Pages in original 2',
      'Created (UTC) 2024-05-01T08:00:00.000Z',
      'Completed (UTC) 2024-05-02T09:31:00.123Z',
      'Łukasz Nowak Email lukasz@example.pl Status signed Signed at (UTC) 2024-05-01T10:00:00.000Z',
      'Дмитрий Ωμέγα Email dmitri@example.ru Status declined Signed at (UTC) -',
      'Audit chain head event #14 c0ffee0000000000000000000000000000000000000000000000000000c0ffee',
      'Signature level PAdES B-LTA',
      'Mutual NDA.pdf SHA-256 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 Pages 2',
      'recorded by the service as documentHashFinal',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('states per signer the authentication (phone masked), consent version, adopted signature and each action with its IP and user agent', async () => {
    const data = input(0);
    data.events = [
      { seq: 1, timestamp: '2024-05-01T08:05:00.000Z', event: 'envelope.sent', actor: 'system', ip: '198.51.100.20', userAgent: 'crm-client/3.1' },
      { seq: 2, timestamp: '2024-05-01T09:00:00.000Z', event: 'signer.viewed', actor: 'signer:s1', ip: IPV6, userAgent: LONG_UA },
      { seq: 3, timestamp: '2024-05-01T09:01:00.000Z', event: 'signer.otp_verified', actor: 'signer:s1', ip: IPV6, userAgent: 'UA-verify' },
      { seq: 4, timestamp: '2024-05-01T09:02:00.000Z', event: 'signer.consented', actor: 'signer:s1', ip: '203.0.113.7', userAgent: 'UA-consent' },
      { seq: 5, timestamp: '2024-05-01T10:00:00.000Z', event: 'signer.signed', actor: 'signer:s1', ip: '203.0.113.8', userAgent: 'UA-sign' },
      { seq: 6, timestamp: '2024-05-01T10:30:00.000Z', event: 'signer.consented', actor: 'signer:s2', ip: '192.0.2.1', userAgent: 'UA-wang' },
      { seq: 7, timestamp: '2024-05-01T12:00:00.000Z', event: 'signer.declined', actor: 'signer:s3', ip: '192.0.2.9', userAgent: 'UA-decline' },
    ];
    const pdf = await withCertificate(await makePdf(), data);
    const text = certificateText(pdf, 2);
    const signers = text.slice(text.indexOf('Signers (3)'), text.indexOf('Audit trail'));
    for (const expected of [
      'Authentication One-time code by SMS to +49 •••• ••12',
      'Consent Electronic signature disclosure, version 2026-01',
      'Signature Drawn (image)',
      `Viewed (UTC) 2024-05-01T09:00:00.000Z IP address ${IPV6} User agent Mozilla/5.0`,
      `Code verified (UTC) 2024-05-01T09:01:00.000Z IP address ${IPV6} User agent UA-verify`,
      'Consented (UTC) 2024-05-01T09:02:00.000Z IP address 203.0.113.7 User agent UA-consent',
      'Signed (UTC) 2024-05-01T10:00:00.000Z IP address 203.0.113.8 User agent UA-sign',
      'Authentication One-time code by email to wang@example.cn',
      'Consent Given (the disclosure version was not recorded then)',
      'Signature Typed, in the font Great Vibes Wang Xiaoming',
      'Initials Typed, in the font Caveat WX',
      'Authentication None (the signing link only) Consent Not given',
      'Declined (UTC) 2024-05-01T12:00:00.000Z IP address 192.0.2.9 User agent UA-decline',
    ]) expect(signers).toContain(expected);
    expect(text).not.toMatch(/151\s*2345|2345\s*6712|4915/); // never the whole number
    expect(signers.split('Extension29/1.29').length - 1).toBe(1); // the long user agent wrapped, whole
    for (const expected of [
      'Sent by Anna Schmidt (legal), through the application crm-prod',
      'Sent (UTC) 2024-05-01T08:05:00.000Z Sent from IP 198.51.100.20 Sender user agent crm-client/3.1',
      'Carbon copies Zoë Ångström <zoe@example.se>; 山田 太郎 <yamada@example.jp>',
      'Sealed and completed (UTC) 2024-05-02T09:31:00.123Z',
      'Seal Sealed by CN=Acme Document Seal, O=Acme GmbH, C=DE, timestamped by tsa.example.net.',
      'the validation data in this PDF proves them',
    ]) expect(text).toContain(expected);
    const images = execFileSync('pdfimages', ['-list', '-f', '2', tempFile(pdf)], { encoding: 'utf8' });
    expect(images).toMatch(/\b240\s+80\b/); // the drawn signature, shown on the certificate
  });

  it('in a several-document envelope, names this file and lists every document with its SHA-256', async () => {
    const data = input(2);
    data.documents = [
      { name: 'Contract.pdf', sha256: 'a'.repeat(64), pageCount: 3, thisFile: false },
      { name: 'Annex — Preisblatt.pdf', sha256: 'b'.repeat(64), pageCount: 1, thisFile: true },
      { name: 'ملحق.pdf', sha256: 'c'.repeat(64), pageCount: 2, thisFile: false },
    ];
    const text = certificateText(await withCertificate(await makePdf(), data), 2);
    for (const expected of [
      'This file Document 2 of 3: Annex — Preisblatt.pdf',
      `1. Contract.pdf SHA-256 ${'a'.repeat(64)} Pages 3`,
      `2. Annex — Preisblatt.pdf (this file) SHA-256 ${'b'.repeat(64)} Pages 1`,
      `SHA-256 ${'c'.repeat(64)} Pages 2`,
      'ملحق', // right-to-left: pdftotext reorders the line around it
    ]) expect(text).toContain(expected);
  });

  it('keeps every word inside the page margins', async () => {
    const certificate = pages(await withCertificate(await makePdf(), input(120))).slice(1);
    for (const page of certificate) {
      for (const word of page.words) {
        expect(word.xMin, word.text).toBeGreaterThanOrEqual(49);
        expect(word.xMax, word.text).toBeLessThanOrEqual(page.width - 49);
        expect(word.yMin, word.text).toBeGreaterThanOrEqual(40);
        expect(word.yMax, word.text).toBeLessThanOrEqual(page.height - 40);
      }
    }
  });

  it('writes a clean file (qpdf --check)', async () => {
    const run = spawnSync('qpdf', ['--check', tempFile(await withCertificate(await makePdf(), input(30)))], { encoding: 'utf8' });
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.stdout + run.stderr).not.toMatch(/WARNING/i);
  });

  it('shows an actor it cannot resolve as written, and a date it cannot parse as given', async () => {
    const data = { ...input(0), events: [{ seq: 1, timestamp: 'yesterday', event: 'signer.viewed', actor: 'signer:unknown', ip: null, userAgent: null }] };
    const text = certificateText(await withCertificate(await makePdf(), data), 2);
    expect(text).toContain('#1 yesterday signer.viewed Actor signer:unknown IP address - User agent -');
  });
});
