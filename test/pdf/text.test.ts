/**
 * Names, typed signatures and mixed-direction text in every script the seal draws: each comes back from
 * pdftotext as typed, renders with ink in a face that has it (renders saved under test-artifacts/text/ for CI
 * and for a person to look at), and what no face has is drawn as a box and reported.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { KeyFileSigner } from '#shared/adapters/local/key-file-signer.ts';
import { sealPdf, type SealInput } from '#shared/sealing/seal.ts';
import type { FlattenItem } from '#shared/sealing/flatten.ts';
import { uncoveredCharacters } from '#shared/sealing/text/catalog.ts';
import { layoutLine } from '#shared/sealing/text/layout.ts';
import { makePdf } from '#test/support/pdfs.ts';
import { tempDir, tempFile } from './signature-tools.ts';

const ARTIFACTS = join(import.meta.dirname, '..', '..', 'test-artifacts', 'text');

/** One name per script (26 scripts), as people write them. */
export const NAMES: Record<string, string> = {
  Latin: 'Łukasz Żółć', Vietnamese: 'Nguyễn Thị Minh Khai', Greek: 'Ωμέγα Παπαδοπούλου', Cyrillic: 'Дмитрий Шостакович',
  Devanagari: 'अनुष्का शर्मा', Bengali: 'রবীন্দ্রনাথ ঠাকুর', Tamil: 'சுப்பிரமணிய பாரதி', Gujarati: 'નરેન્દ્ર મોદી',
  Gurmukhi: 'ਗੁਰਪ੍ਰੀਤ ਸਿੰਘ', Telugu: 'వెంకట్ రెడ్డి', Kannada: 'ಕುವೆಂಪು ಪುಟ್ಟಪ್ಪ', Malayalam: 'മോഹൻലാൽ വിശ്വനാഥൻ',
  Sinhala: 'කුමාර් සංගක්කාර', Thai: 'สมชาย ใจดี', Lao: 'ສົມພອນ ແກ້ວ', Khmer: 'សុខ ចាន់ថា', Myanmar: 'အောင်ဆန်း စုကြည်',
  Arabic: 'محمد بن عبد الله', Persian: 'فاطمه رضایی', Hebrew: 'דוד בן גוריון', Georgian: 'ნინო ჩხეიძე',
  Armenian: 'Արամ Խաչատրյան', Ethiopic: 'ኃይሌ ገብረሥላሴ', Han: '王小明', Japanese: '山田 たろう カタカナ', Hangul: '김민준',
};

/** Mixed directions on a left-to-right line: each run comes back in reading order. */
const MIXED = ['Contract with שרה כהן and محمد علي signed', 'Invoice 2024 for דוד לוי'];
const SIGNATURES: [string, string][] = [['Caveat', 'Łukasz Nowak'], ['Great Vibes', 'अनुष्का शर्मा'], ['Dancing Script', 'محمد بن عبد الله'], ['Caveat', 'שרה כהן'], ['Caveat', 'สมชาย ใจดี']];
const EMOJI = 'Signed ✍ 👍 😀';

let signer: KeyFileSigner;
beforeAll(async () => {
  signer = await KeyFileSigner.open(tempDir());
  mkdirSync(ARTIFACTS, { recursive: true });
});

const text = (t: string, i: number): FlattenItem => ({ page: 1 + Math.floor(i / 20), rect: { x: 50, y: 780 - (i % 20) * 38, width: 480, height: 28 }, rotate: 0, value: { kind: 'text', text: t } });
const typed = ([fontLabel, t]: [string, string], i: number): FlattenItem => ({ page: 3, rect: { x: 50, y: 700 - i * 70, width: 300, height: 50 }, rotate: 0, value: { kind: 'typed', text: t, fontLabel } });

function sealed(items: FlattenItem[], pages: number): Promise<{ bytes: Uint8Array; uncovered: Awaited<ReturnType<typeof sealPdf>>['uncovered'] }> {
  const input: SealInput = {
    items, signer, signingTime: new Date('2026-03-01T12:00:00Z'),
    certificate: {
      envelopeId: 'e', subject: 'Scripts', originalSha256: '0'.repeat(64), originalPageCount: pages, createdAt: '2026-03-01T10:00:00.000Z', completedAt: '2026-03-01T12:00:00.000Z',
      chainHead: { seq: 1, hash: '0'.repeat(64) }, documents: [], events: [],
      signers: Object.entries(NAMES).map(([script, name], i) => ({ id: String(i), name, email: `${script.toLowerCase()}@example.com`, status: 'signed', signedAt: null })),
    },
  };
  return makePdf({ pages }).then((pdf) => sealPdf(pdf, input));
}

/** pdftotext's output, NFC, without the bidi embedding marks poppler wraps right-to-left runs in, spaces collapsed. */
const extracted = (pdf: Uint8Array): string =>
  execFileSync('pdftotext', [tempFile(pdf, 'text.pdf'), '-'], { encoding: 'utf8' }).normalize('NFC').replace(/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '').replace(/[ \t]+/g, ' ');

/** Renders every page to test-artifacts/text/<name>-<n>.png; returns the number of dark pixels per page. */
function render(pdf: Uint8Array, name: string): number[] {
  execFileSync('pdftoppm', ['-png', '-r', '110', tempFile(pdf, 'render.pdf'), join(ARTIFACTS, name)]);
  const pages = execFileSync('ls', [ARTIFACTS], { encoding: 'utf8' }).split('\n').filter((f) => f.startsWith(`${name}-`) && f.endsWith('.png')).sort();
  return pages.map((file) => {
    const png = PNG.sync.read(execFileSync('cat', [join(ARTIFACTS, file)]));
    let ink = 0;
    for (let i = 0; i < png.data.length; i += 4) if (png.data[i]! + png.data[i + 1]! + png.data[i + 2]! < 300) ink++;
    return ink;
  });
}

describe('text in every script', () => {
  it('every name (26 scripts), mixed-direction line, typed signature and emoji comes back from pdftotext as typed', async () => {
    const lines = [...Object.values(NAMES), ...MIXED, EMOJI];
    const { bytes, uncovered } = await sealed([...lines.map(text), ...SIGNATURES.map(typed)], 3);
    expect(uncovered).toEqual({ items: [], certificate: [] });
    writeFileSync(join(ARTIFACTS, 'corpus.pdf'), bytes);
    const out = extracted(bytes);
    for (const line of [...Object.values(NAMES), EMOJI, ...SIGNATURES.map(([, t]) => t)]) expect(out, line).toContain(line.normalize('NFC'));
    // poppler puts the space at the edge of a right-to-left run on its other side: compare the characters in reading order
    const squeezed = out.replace(/\s+/g, '');
    for (const line of MIXED) expect(squeezed, line).toContain(line.normalize('NFC').replace(/\s+/g, ''));
    const ink = render(bytes, 'corpus');
    expect(ink.slice(0, 3).every((dark) => dark > 2000)).toBe(true);
  });

  it('a right-to-left line with Latin in it reads right to left; each word comes back', async () => {
    const line = 'محمد Ali 2024 שלום';
    const shaped = await layoutLine(line, 'regular');
    expect(shaped.direction).toBe('rtl');
    const out = extracted((await sealed([text(line, 0)], 1)).bytes);
    for (const word of line.split(' ')) expect(out).toContain(word);
  });

  it('shapes: Devanagari conjuncts, Arabic joining and Thai marks take fewer glyphs than characters', async () => {
    const glyphs = async (t: string) => (await layoutLine(t, 'regular')).runs.reduce((n, r) => n + r.glyphs.length, 0);
    expect(await glyphs('क्षत्रिय')).toBeLessThan(Array.from('क्षत्रिय').length);
    expect(await glyphs('ਗੁਰਪ੍ਰੀਤ')).toBeLessThan(Array.from('ਗੁਰਪ੍ਰੀਤ').length);
    const arabic = await layoutLine('محمد', 'regular');
    const isolated = await Promise.all(Array.from('محمد', (ch) => layoutLine(ch, 'regular')));
    expect(arabic.runs[0]?.glyphs.map((g) => g.gid)).not.toEqual(isolated.flatMap((l) => l.runs[0]?.glyphs.map((g) => g.gid) ?? []).reverse());
  });
});

describe('characters no face has', () => {
  it('uncoveredCharacters lists them once each, cheaply and without a PDF; invisible characters are never listed', () => {
    expect(uncoveredCharacters('Łukasz 王 नमस्ते محمد 👍')).toEqual([]);
    expect(uncoveredCharacters('a\u{10FFFD}b\u{10FFFD}\u{E000}\u200d\ufe0f')).toEqual(['\u{10FFFD}', '\u{E000}']);
  });

  it('draws them as a box and reports them per value and on the certificate', async () => {
    const { bytes, uncovered } = await sealed([text('ok \u{10FFFD} ok', 0), text('fine', 1)], 1);
    expect(uncovered.items).toEqual([{ index: 0, characters: ['\u{10FFFD}'] }]);
    expect(render(bytes, 'placeholder')[0]).toBeGreaterThan(50);
  });
});
