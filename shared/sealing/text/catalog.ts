/**
 * Which font draws which character. Every face is a Noto family (SIL Open Font License 1.1) shipped as TTF in an
 * npm package, except DejaVu Sans (its own free licence) kept as the last resort for symbols Noto Sans lacks, and
 * the three script faces a signer may choose for a typed signature (OFL 1.1).
 *
 * A character goes to the face for its script (Devanagari to Noto Sans Devanagari, Han to Noto Sans SC, ... over 20
 * scripts in all);
 * anything else through the style's general chain. Files are read and parsed on first use only, so a seal of
 * Latin names never touches the 10 MB CJK faces, and the seal function's cold start reads none of them.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';

export type TextStyle = 'regular' | 'bold' | SignatureFontLabel;

/** Labels a signer may choose for a typed signature (SignRequest.fontLabel); the first is the default. */
export const SIGNATURE_FONTS = ['Dancing Script', 'Great Vibes', 'Caveat'] as const;
export type SignatureFontLabel = (typeof SIGNATURE_FONTS)[number];

// Paths are literal strings: infra/constructs/service-function.ts reads this file to ship them beside the seal bundle.
const NOTO_SANS = { regular: '@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf', bold: '@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf' };
const DEJAVU = { regular: 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf', bold: 'dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf' };
const EMOJI = '@expo-google-fonts/noto-emoji/400Regular/NotoEmoji_400Regular.ttf';
export const EMOJI_FACE = EMOJI;
const CJK_SC = '@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf';
const CJK_KR = '@expo-google-fonts/noto-sans-kr/400Regular/NotoSansKR_400Regular.ttf';

const SIGNATURE_FILES: Record<SignatureFontLabel, string> = {
  'Dancing Script': '@expo-google-fonts/dancing-script/400Regular/DancingScript_400Regular.ttf',
  'Great Vibes': '@expo-google-fonts/great-vibes/400Regular/GreatVibes_400Regular.ttf',
  Caveat: '@expo-google-fonts/caveat/400Regular/Caveat_400Regular.ttf',
};

/** Script faces, regular and bold. CJK has no bold here: 10 MB more per face for headings only. */
const SCRIPT_FACES: { pattern: RegExp; regular: string; bold: string }[] = [
  { pattern: /\p{Script=Devanagari}/u, regular: '@expo-google-fonts/noto-sans-devanagari/400Regular/NotoSansDevanagari_400Regular.ttf', bold: '@expo-google-fonts/noto-sans-devanagari/700Bold/NotoSansDevanagari_700Bold.ttf' },
  { pattern: /\p{Script=Bengali}/u, regular: '@expo-google-fonts/noto-sans-bengali/400Regular/NotoSansBengali_400Regular.ttf', bold: '@expo-google-fonts/noto-sans-bengali/700Bold/NotoSansBengali_700Bold.ttf' },
  { pattern: /\p{Script=Tamil}/u, regular: '@expo-google-fonts/noto-sans-tamil/400Regular/NotoSansTamil_400Regular.ttf', bold: '@expo-google-fonts/noto-sans-tamil/700Bold/NotoSansTamil_700Bold.ttf' },
  { pattern: /\p{Script=Thai}/u, regular: '@expo-google-fonts/noto-sans-thai/400Regular/NotoSansThai_400Regular.ttf', bold: '@expo-google-fonts/noto-sans-thai/700Bold/NotoSansThai_700Bold.ttf' },
  { pattern: /\p{Script=Arabic}/u, regular: '@expo-google-fonts/noto-naskh-arabic/400Regular/NotoNaskhArabic_400Regular.ttf', bold: '@expo-google-fonts/noto-naskh-arabic/700Bold/NotoNaskhArabic_700Bold.ttf' },
  { pattern: /\p{Script=Hebrew}/u, regular: '@expo-google-fonts/noto-sans-hebrew/400Regular/NotoSansHebrew_400Regular.ttf', bold: '@expo-google-fonts/noto-sans-hebrew/700Bold/NotoSansHebrew_700Bold.ttf' },
  { pattern: /\p{Script=Georgian}/u, regular: '@expo-google-fonts/noto-sans-georgian/400Regular/NotoSansGeorgian_400Regular.ttf', bold: '@expo-google-fonts/noto-sans-georgian/700Bold/NotoSansGeorgian_700Bold.ttf' },
  { pattern: /\p{Script=Armenian}/u, regular: '@expo-google-fonts/noto-sans-armenian/400Regular/NotoSansArmenian_400Regular.ttf', bold: '@expo-google-fonts/noto-sans-armenian/700Bold/NotoSansArmenian_700Bold.ttf' },
  { pattern: /\p{Script=Ethiopic}/u, regular: '@expo-google-fonts/noto-sans-ethiopic/400Regular/NotoSansEthiopic_400Regular.ttf', bold: '@expo-google-fonts/noto-sans-ethiopic/700Bold/NotoSansEthiopic_700Bold.ttf' },
  { pattern: /\p{Script=Gujarati}/u, regular: '@expo-google-fonts/noto-sans-gujarati/400Regular/NotoSansGujarati_400Regular.ttf', bold: '@expo-google-fonts/noto-sans-gujarati/700Bold/NotoSansGujarati_700Bold.ttf' },
  { pattern: /\p{Script=Gurmukhi}/u, regular: '@expo-google-fonts/noto-sans-gurmukhi/400Regular/NotoSansGurmukhi_400Regular.ttf', bold: '@expo-google-fonts/noto-sans-gurmukhi/700Bold/NotoSansGurmukhi_700Bold.ttf' },
  { pattern: /\p{Script=Telugu}/u, regular: '@expo-google-fonts/noto-sans-telugu/400Regular/NotoSansTelugu_400Regular.ttf', bold: '@expo-google-fonts/noto-sans-telugu/700Bold/NotoSansTelugu_700Bold.ttf' },
  { pattern: /\p{Script=Kannada}/u, regular: '@expo-google-fonts/noto-sans-kannada/400Regular/NotoSansKannada_400Regular.ttf', bold: '@expo-google-fonts/noto-sans-kannada/700Bold/NotoSansKannada_700Bold.ttf' },
  { pattern: /\p{Script=Malayalam}/u, regular: '@expo-google-fonts/noto-sans-malayalam/400Regular/NotoSansMalayalam_400Regular.ttf', bold: '@expo-google-fonts/noto-sans-malayalam/700Bold/NotoSansMalayalam_700Bold.ttf' },
  { pattern: /\p{Script=Sinhala}/u, regular: '@expo-google-fonts/noto-sans-sinhala/400Regular/NotoSansSinhala_400Regular.ttf', bold: '@expo-google-fonts/noto-sans-sinhala/700Bold/NotoSansSinhala_700Bold.ttf' },
  { pattern: /\p{Script=Khmer}/u, regular: '@expo-google-fonts/noto-sans-khmer/400Regular/NotoSansKhmer_400Regular.ttf', bold: '@expo-google-fonts/noto-sans-khmer/700Bold/NotoSansKhmer_700Bold.ttf' },
  { pattern: /\p{Script=Lao}/u, regular: '@expo-google-fonts/noto-sans-lao/400Regular/NotoSansLao_400Regular.ttf', bold: '@expo-google-fonts/noto-sans-lao/700Bold/NotoSansLao_700Bold.ttf' },
  { pattern: /\p{Script=Myanmar}/u, regular: '@expo-google-fonts/noto-sans-myanmar/400Regular/NotoSansMyanmar_400Regular.ttf', bold: '@expo-google-fonts/noto-sans-myanmar/700Bold/NotoSansMyanmar_700Bold.ttf' },
  { pattern: /\p{Script=Hangul}/u, regular: CJK_KR, bold: CJK_KR },
  { pattern: /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Bopomofo}]/u, regular: CJK_SC, bold: CJK_SC },
];

/** Every font file the seal may read (for the deployment bundle and its check). */
export const FONT_FILES: readonly string[] = [
  ...new Set([...Object.values(NOTO_SANS), ...Object.values(DEJAVU), EMOJI, CJK_SC, CJK_KR, ...Object.values(SIGNATURE_FILES), ...SCRIPT_FACES.flatMap((f) => [f.regular, f.bold])]),
];

/** A parsed font file, shared by every document of the process. */
export interface FontFile {
  path: string;
  bytes: Buffer;
  font: fontkit.Font;
}

const requireFromHere = createRequire(import.meta.url);
const files = new Map<string, FontFile>();

export function fontFile(path: string): FontFile {
  let entry = files.get(path);
  if (!entry) {
    const bytes = readFileSync(requireFromHere.resolve(path));
    const font = fontkit.create(bytes);
    if ('fonts' in font) throw new Error(`${path} is a font collection; a single TTF/OTF is needed`);
    entry = { path, bytes, font };
    files.set(path, entry);
  }
  return entry;
}

/** Fails before anything is drawn when a deployment lacks a font file (no file is read). */
export function assertFontFilesPresent(): void {
  if (fontFilesFound) return; // checked once per process: a deployment's files do not go away while it runs
  for (const path of FONT_FILES) requireFromHere.resolve(path);
  fontFilesFound = true;
}
let fontFilesFound = false;

const styleFile = (style: TextStyle, pair: { regular: string; bold: string }): string => (style === 'bold' ? pair.bold : pair.regular);

/** The faces to try for a character, best first. */
export function candidates(style: TextStyle, ch: string): string[] {
  const script = SCRIPT_FACES.find((face) => face.pattern.test(ch));
  const general = [styleFile(style, NOTO_SANS), styleFile(style, DEJAVU), EMOJI, CJK_SC, CJK_KR];
  const first = style === 'regular' || style === 'bold' ? [] : [SIGNATURE_FILES[style]];
  return [...first, ...(script ? [styleFile(style, script)] : []), ...general];
}

/** The first face that has a glyph for the character, or undefined. */
export function faceFor(style: TextStyle, ch: string): string | undefined {
  const codePoint = ch.codePointAt(0) ?? 0;
  return candidates(style, ch).find((path) => fontFile(path).font.hasGlyphForCodePoint(codePoint));
}

export function hasGlyph(path: string, ch: string): boolean {
  return fontFile(path).font.hasGlyphForCodePoint(ch.codePointAt(0) ?? 0);
}

/** A signer's font label, or the default one for labels we do not know. */
export function signatureStyle(fontLabel: string): SignatureFontLabel {
  return SIGNATURE_FONTS.find((known) => known === fontLabel) ?? SIGNATURE_FONTS[0];
}

/** Not drawn, so never uncovered: controls, format characters (ZWJ, bidi marks), variation selectors, whitespace. */
export const isInvisible = (ch: string): boolean => /[\p{Cc}\p{Default_Ignorable_Code_Point}\s]/u.test(ch);

/**
 * The characters of `text` no bundled font can draw (each once, in order of appearance). Cheap: reads only the
 * faces for the scripts present, and needs no PDF; the seal draws each of these as a box.
 */
export function uncoveredCharacters(text: string): string[] {
  const missing = new Set<string>();
  for (const ch of text.normalize('NFC')) {
    if (!isInvisible(ch) && !missing.has(ch) && faceFor('regular', ch) === undefined) missing.add(ch);
  }
  return [...missing];
}
