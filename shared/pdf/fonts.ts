/**
 * Fonts for what sealing draws: names, typed signatures and free text in any common script.
 *
 * The standard 14 fonts only cover WinAnsi, so each string goes through a chain of fonts and every
 * character is drawn by the first one that has it: Helvetica when the whole string is WinAnsi, else
 * DejaVu Sans (Latin, Greek, Cyrillic), Noto Sans SC (Chinese, Japanese kana) and Noto Sans KR (Hangul),
 * embedded as subsets. A string that mixes scripts becomes several runs.
 *
 * Embedding goes through fontkit 2 behind pdf-lib's Fontkit interface: @pdf-lib/fontkit 1.1.1
 * subsets CJK fonts into blank glyphs (pdf-lib issue 1232).
 * pdf-lib writes embedded fonts lazily: `doc.save()` or `doc.flush()` must run before the bytes are written.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import * as fontkit from 'fontkit';
import { randomInt } from 'node:crypto';
import { degrees, drawText, rgb, StandardFonts, type Color, type PDFDocument, type PDFFont, type PDFName, type PDFPage } from 'pdf-lib';

/** A font embedded in one document, with its vertical metrics in em (descent is negative). */
export interface Face {
  font: PDFFont;
  ascent: number;
  descent: number;
}

export interface TextRun {
  text: string;
  face: Face;
}

/** Turns a string into runs that together draw every character (unknown characters become '?'). */
export interface FontChain {
  runs(text: string): Promise<TextRun[]>;
}

export interface FontSet {
  regular: FontChain;
  bold: FontChain;
  signature(fontLabel: string): FontChain;
}

/** Labels a signer may choose for a typed signature (SignRequest.fontLabel); the first is the default. */
export const SIGNATURE_FONTS = ['Dancing Script', 'Great Vibes', 'Caveat'] as const;
export type SignatureFontLabel = (typeof SIGNATURE_FONTS)[number];

const SIGNATURE_FILES: Record<SignatureFontLabel, string> = {
  'Dancing Script': '@expo-google-fonts/dancing-script/400Regular/DancingScript_400Regular.ttf',
  'Great Vibes': '@expo-google-fonts/great-vibes/400Regular/GreatVibes_400Regular.ttf',
  Caveat: '@expo-google-fonts/caveat/400Regular/Caveat_400Regular.ttf',
};

const UNICODE_FALLBACKS = [
  '@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf',
  '@expo-google-fonts/noto-sans-kr/400Regular/NotoSansKR_400Regular.ttf',
];
const DEJAVU = 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf';
const DEJAVU_BOLD = 'dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf';

/** A font file (module path) or a standard font, which is only used for strings it covers entirely. */
type Source = { file: string } | { standard: StandardFonts.Helvetica | StandardFonts.HelveticaBold };

const REGULAR: Source[] = [{ standard: StandardFonts.Helvetica }, { file: DEJAVU }, ...UNICODE_FALLBACKS.map((file) => ({ file }))];
const BOLD: Source[] = [{ standard: StandardFonts.HelveticaBold }, { file: DEJAVU_BOLD }, ...UNICODE_FALLBACKS.map((file) => ({ file }))];

/** Fonts are embedded on first use (unused ones are never written); their files must be resolvable up front. */
export function createFontSet(doc: PDFDocument): Promise<FontSet> {
  // Fails before anything is drawn when a deployment bundle lacks a font file.
  for (const file of [DEJAVU, DEJAVU_BOLD, ...UNICODE_FALLBACKS, ...Object.values(SIGNATURE_FILES)]) requireFromHere.resolve(file);
  return Promise.resolve({
    regular: chain(doc, REGULAR),
    bold: chain(doc, BOLD),
    signature: (fontLabel: string) => signatureFont(doc, fontLabel),
  });
}

/** The chain for a typed signature: the chosen script font (the first one for unknown labels), then the Unicode fallbacks. */
export function signatureFont(doc: PDFDocument, fontLabel: string): FontChain {
  const label = SIGNATURE_FONTS.find((known) => known === fontLabel) ?? SIGNATURE_FONTS[0];
  return chain(doc, [{ file: SIGNATURE_FILES[label] }, { file: DEJAVU }, ...UNICODE_FALLBACKS.map((file) => ({ file }))]);
}

// ---------------------------------------------------------------------------------------------
// Font files, read once per process, and fontkit 2 behind pdf-lib's Fontkit interface.

type PdfLibFontkit = Parameters<PDFDocument['registerFontkit']>[0];

const requireFromHere = createRequire(import.meta.url);
const parsed = new Map<string, { bytes: Uint8Array; font: fontkit.Font }>();
const fontByBytes = new WeakMap<Uint8Array, fontkit.Font>();

function loadFile(file: string): { bytes: Uint8Array; font: fontkit.Font } {
  let entry = parsed.get(file);
  if (!entry) {
    const bytes = readFileSync(requireFromHere.resolve(file));
    const font = fontkit.create(bytes);
    if ('fonts' in font) throw new Error(`${file} is a font collection; a single TTF/OTF is needed`);
    entry = { bytes, font: withSubsetStream(font) };
    parsed.set(file, entry);
    fontByBytes.set(bytes, entry.font);
  }
  return entry;
}

/** pdf-lib reads a subset through encodeStream(); fontkit 2 only has encode(). */
function withSubsetStream(font: fontkit.Font): fontkit.Font {
  const createSubset = font.createSubset.bind(font);
  font.createSubset = () => {
    const subset = createSubset();
    return Object.assign(subset, { encodeStream: () => Readable.from([subset.encode()]) });
  };
  return font;
}

const fontkitAdapter: PdfLibFontkit = {
  create(bytes: Uint8Array) {
    const font = fontByBytes.get(bytes) ?? withSubsetStream(fontkit.create(Buffer.from(bytes)) as fontkit.Font);
    // One parsed font serves every document: subsets are per embedding, and parsing CJK fonts costs ~10 ms.
    return font as unknown as ReturnType<PdfLibFontkit['create']>;
  },
};

// ---------------------------------------------------------------------------------------------
// Per-document faces and the run splitting.

const facesByDoc = new WeakMap<PDFDocument, Map<string, Promise<Face>>>();

/** Helvetica's metrics as its common metric-compatible TrueType versions declare them. */
const HELVETICA_METRICS = { ascent: 0.905, descent: -0.212 };

function face(doc: PDFDocument, source: Source): Promise<Face> {
  let faces = facesByDoc.get(doc);
  if (!faces) facesByDoc.set(doc, (faces = new Map<string, Promise<Face>>()));
  const key = 'file' in source ? source.file : source.standard;
  let result = faces.get(key);
  if (!result) {
    result = embed(doc, source);
    faces.set(key, result);
  }
  return result;
}

async function embed(doc: PDFDocument, source: Source): Promise<Face> {
  if (!('file' in source)) return { font: await doc.embedFont(source.standard), ...HELVETICA_METRICS };
  const { bytes, font } = loadFile(source.file);
  doc.registerFontkit(fontkitAdapter);
  // A subset's name starts with a six-letter tag (ISO 32000 9.6.4), which pdffonts and PDF/A checks expect.
  const tag = Array.from({ length: 6 }, () => String.fromCharCode(65 + randomInt(26))).join('');
  const embedded = await doc.embedFont(bytes, { subset: true, customName: `${tag}+${font.postscriptName}` });
  return { font: embedded, ascent: font.ascent / font.unitsPerEm, descent: font.descent / font.unitsPerEm };
}

function chain(doc: PDFDocument, sources: Source[]): FontChain {
  return { runs: (text) => splitRuns(doc, sources, text) };
}

async function splitRuns(doc: PDFDocument, sources: Source[], text: string): Promise<TextRun[]> {
  const clean = normalise(text);
  const standard = sources.find((s) => 'standard' in s);
  if (standard && Array.from(clean).every((ch) => isWinAnsi(ch.codePointAt(0) ?? 0))) {
    return clean ? [{ text: clean, face: await face(doc, standard) }] : [];
  }
  const files = sources.flatMap((s) => ('file' in s ? [s.file] : []));
  const pieces: { file: string; text: string }[] = [];
  for (const ch of clean) {
    const { file, drawn } = pick(files, ch, pieces.at(-1)?.file);
    const last = pieces.at(-1);
    if (last?.file === file) last.text += drawn;
    else pieces.push({ file, text: drawn });
  }
  return Promise.all(pieces.map(async (p) => ({ text: p.text, face: await face(doc, { file: p.file }) })));
}

/** The first font that has the character; spaces stay with the previous run; nothing found: '?' in the first font. */
function pick(files: string[], ch: string, previous: string | undefined): { file: string; drawn: string } {
  const codePoint = ch.codePointAt(0) ?? 0;
  if (previous && /\s/.test(ch) && loadFile(previous).font.hasGlyphForCodePoint(codePoint)) return { file: previous, drawn: ch };
  const file = files.find((f) => loadFile(f).font.hasGlyphForCodePoint(codePoint));
  return file ? { file, drawn: ch } : { file: files[0] ?? DEJAVU, drawn: '?' };
}

/** NFC (so "e" + combining accent can use Helvetica); control characters and line breaks as spaces; invisible format characters (soft hyphen, ZWJ, BOM) dropped. */
function normalise(text: string): string {
  return text.normalize('NFC').replace(/[\p{Cc}\u2028\u2029]/gu, ' ').replace(/\p{Cf}/gu, '');
}

const WIN_ANSI_EXTRA = new Set([
  0x152, 0x153, 0x160, 0x161, 0x178, 0x17d, 0x17e, 0x192, 0x2c6, 0x2dc, 0x2013, 0x2014, 0x2018, 0x2019,
  0x201a, 0x201c, 0x201d, 0x201e, 0x2020, 0x2021, 0x2022, 0x2026, 0x2030, 0x2039, 0x203a, 0x20ac, 0x2122,
]);

/** What pdf-lib's Helvetica can encode (WinAnsiEncoding). */
export function isWinAnsi(codePoint: number): boolean {
  return (codePoint >= 0x20 && codePoint <= 0x7e) || (codePoint >= 0xa0 && codePoint <= 0xff) || WIN_ANSI_EXTRA.has(codePoint);
}

// ---------------------------------------------------------------------------------------------
// Measuring, wrapping and drawing runs.

export function widthOf(runs: TextRun[], size: number): number {
  return runs.reduce((sum, run) => sum + run.face.font.widthOfTextAtSize(run.text, size), 0);
}

/** The tallest ascent and deepest descent of the runs' faces, in em. */
export function extentOf(runs: TextRun[]): { ascent: number; descent: number } {
  const ascent = Math.max(HELVETICA_METRICS.ascent, ...runs.map((r) => r.face.ascent));
  const descent = Math.min(HELVETICA_METRICS.descent, ...runs.map((r) => r.face.descent));
  return { ascent, descent };
}

const fontKeys = new WeakMap<PDFPage, Map<PDFFont, PDFName>>();

/** The page's resource name for the font; page.drawText() would add a new one on every call. */
function fontKey(page: PDFPage, font: PDFFont): PDFName {
  let keys = fontKeys.get(page);
  if (!keys) fontKeys.set(page, (keys = new Map<PDFFont, PDFName>()));
  let key = keys.get(font);
  if (!key) keys.set(font, (key = page.node.newFontDictionary(font.name, font.ref)));
  return key;
}

const BLACK = rgb(0, 0, 0);

export function drawRuns(page: PDFPage, runs: TextRun[], at: { x: number; y: number; size: number; color?: Color }): void {
  let x = at.x;
  const common = { size: at.size, color: at.color ?? BLACK, rotate: degrees(0), xSkew: degrees(0), ySkew: degrees(0) };
  for (const run of runs) {
    page.pushOperators(...drawText(run.face.font.encodeText(run.text), { ...common, x, y: at.y, font: fontKey(page, run.face.font) }));
    x += run.face.font.widthOfTextAtSize(run.text, at.size);
  }
}

const charWidths = new WeakMap<Face, Map<string, number>>();

/** Width of one character at size 1, memoised: wrapping measures every character at several sizes. */
function charWidth(face: Face, ch: string): number {
  let widths = charWidths.get(face);
  if (!widths) charWidths.set(face, (widths = new Map<string, number>()));
  let width = widths.get(ch);
  if (width === undefined) widths.set(ch, (width = face.font.widthOfTextAtSize(ch, 1)));
  return width;
}

interface Unit { ch: string; face: Face; width: number }

/** Lines of runs no wider than maxWidth: breaks at spaces and between CJK characters, inside a word only if it must. */
export async function wrapText(fonts: FontChain, text: string, size: number, maxWidth: number): Promise<TextRun[][]> {
  const lines: TextRun[][] = [];
  for (const paragraph of text.normalize('NFC').split(/\r\n|[\n\r\u2028\u2029]/)) {
    const units = (await fonts.runs(paragraph)).flatMap((run) =>
      Array.from(run.text, (ch) => ({ ch, face: run.face, width: charWidth(run.face, ch) * size })),
    );
    lines.push(...breakUnits(units, maxWidth).map(toRuns));
  }
  return lines;
}

function breakUnits(units: Unit[], maxWidth: number): Unit[][] {
  const lines: Unit[][] = [];
  let line: Unit[] = [];
  let breakAt = 0; // index in line where it may be broken
  for (const unit of units) {
    const space = unit.ch === ' ';
    while (line.length > 0 && !space && widthOfUnits(line) + unit.width > maxWidth) {
      const cut = breakAt > 0 ? breakAt : line.length;
      lines.push(line.slice(0, cut));
      line = line.slice(cut);
      breakAt = 0;
    }
    if (isWide(unit.ch) && line.length > 0) breakAt = line.length;
    line.push(unit);
    if (space || isWide(unit.ch)) breakAt = line.length;
  }
  lines.push(line);
  return lines.map(trimSpaces);
}

const widthOfUnits = (units: Unit[]): number => trimSpaces(units).reduce((sum, u) => sum + u.width, 0);
const trimSpaces = (units: Unit[]): Unit[] => {
  let start = 0;
  let end = units.length;
  while (start < end && units[start]?.ch === ' ') start++;
  while (end > start && units[end - 1]?.ch === ' ') end--;
  return units.slice(start, end);
};

/** CJK ideographs, kana, Hangul and full-width forms: a line may break before or after any of them. */
const isWide = (ch: string): boolean => /[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef\u{20000}-\u{3134f}]/u.test(ch);

function toRuns(units: Unit[]): TextRun[] {
  const runs: TextRun[] = [];
  for (const unit of units) {
    const last = runs.at(-1);
    if (last?.face === unit.face) last.text += unit.ch;
    else runs.push({ text: unit.ch, face: unit.face });
  }
  return runs;
}
