/**
 * A logo as it arrives (a `data:` URI, as a browser's FileReader makes it) checked and made safe: a PNG must be one
 * (signature, chunk structure and CRCs, a full decode) of bounded dimensions; an SVG is sanitised
 * (svg-sanitizer.ts, loaded only here, when an SVG arrives). At most 200 KB either way, so the stored item stays
 * well inside DynamoDB's 400 KB item limit.
 */
import { createHash } from 'node:crypto';
import { PNG } from 'pngjs';
import { ValidationError } from '../kernel/errors.ts';
import type { StoredLogo } from './branding.ts';

export const MAX_LOGO_BYTES = 200 * 1024;
/** Wider or taller than this is no logo, and a decompression bomb is refused before it is inflated. */
export const MAX_LOGO_PIXELS = 4096;

const DATA_URI = /^data:(image\/png|image\/svg\+xml)(;charset=[\w-]+)?(;base64)?,(.*)$/is;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const refuse = (message: string, reason: 'logo_too_large' | 'logo_invalid' = 'logo_invalid') => ValidationError.at('logo', message, reason);

/** The bytes and type a data URI carries; 400 for anything else. */
export function decodeLogo(dataUri: string): { contentType: 'image/png' | 'image/svg+xml'; bytes: Buffer } {
  const match = DATA_URI.exec(dataUri.trim());
  if (!match) throw refuse('must be a data: URI of a PNG or SVG image (data:image/png;base64,... or data:image/svg+xml;base64,...)');
  const [, type, , base64, payload = ''] = match;
  const bytes = base64 ? Buffer.from(payload, 'base64') : Buffer.from(decodeURIComponent(payload), 'utf8');
  if (bytes.length === 0) throw refuse('is empty');
  if (bytes.length > MAX_LOGO_BYTES) throw refuse(`is ${String(Math.ceil(bytes.length / 1024))} KB; a logo may be at most 200 KB`, 'logo_too_large');
  return { contentType: type?.toLowerCase() === 'image/png' ? 'image/png' : 'image/svg+xml', bytes };
}

/** Width and height from IHDR, read before anything is inflated. */
function pngHeader(bytes: Buffer): { width: number; height: number } {
  if (bytes.length < 33 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE)) throw refuse('is not a PNG file (no PNG signature)');
  if (bytes.readUInt32BE(8) !== 13 || bytes.toString('latin1', 12, 16) !== 'IHDR') throw refuse('is not a well-formed PNG (IHDR must come first)');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

export function checkPng(bytes: Buffer): { width: number; height: number } {
  const { width, height } = pngHeader(bytes);
  if (width === 0 || height === 0 || width > MAX_LOGO_PIXELS || height > MAX_LOGO_PIXELS) {
    throw refuse(`is ${String(width)}x${String(height)} pixels; a logo may be at most ${String(MAX_LOGO_PIXELS)} pixels wide and tall`);
  }
  try {
    // Checks every chunk's CRC, the chunk order, and that the image data inflates to exactly these dimensions
    const png = PNG.sync.read(bytes, { checkCRC: true });
    return { width: png.width, height: png.height };
  } catch (error) {
    throw refuse(`is not a valid PNG (${(error as Error).message})`);
  }
}

/** The viewBox's (or width/height's) size, for the pages' layout; null when the SVG states none. */
function svgSize(svg: string): { width: number | null; height: number | null } {
  const root = /^<svg[^>]*>/.exec(svg)?.[0] ?? '';
  const box = /viewBox="\s*[-\d.]+[\s,]+[-\d.]+[\s,]+([\d.]+)[\s,]+([\d.]+)\s*"/.exec(root);
  const number = (name: string) => {
    const value = new RegExp(`\\s${name}="([\\d.]+)(px)?"`).exec(root)?.[1];
    return value ? Math.round(Number(value)) : null;
  };
  return box ? { width: Math.round(Number(box[1])), height: Math.round(Number(box[2])) } : { width: number('width'), height: number('height') };
}

/** The logo as it is stored and served: checked PNG bytes, or the sanitised SVG. */
export async function acceptLogo(dataUri: string, now: Date): Promise<StoredLogo> {
  const { contentType, bytes } = decodeLogo(dataUri);
  let stored: Buffer;
  let size: { width: number | null; height: number | null };
  if (contentType === 'image/png') {
    size = checkPng(bytes);
    stored = bytes;
  } else {
    const source = bytes.toString('utf8');
    if (source.includes('\u0000') || source.includes('\uFFFD')) throw refuse('is not a UTF-8 SVG file');
    const { sanitizeSvg } = await import('./svg-sanitizer.ts');
    const clean = sanitizeSvg(source);
    if (!clean) throw refuse('is not an SVG image (no <svg> root element)');
    stored = Buffer.from(clean, 'utf8');
    if (stored.length > MAX_LOGO_BYTES) throw refuse('is over 200 KB once sanitised', 'logo_too_large');
    size = svgSize(clean);
  }
  return {
    id: createHash('sha256').update(stored).digest('hex'), contentType, ...size, sizeBytes: stored.length,
    bytes: new Uint8Array(stored), createdAt: now.toISOString(),
  };
}
