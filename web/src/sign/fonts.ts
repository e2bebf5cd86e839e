/** Typed signatures drawn as sealing draws them, with the same font files (the build bundles the TTFs with @font-face). */
import type { SignatureFont } from './font-labels.ts';

export { SIGNATURE_FONTS, type SignatureFont } from './font-labels.ts';

/** The colour sealing uses for typed signatures and check marks (rgb(0.08, 0.12, 0.4)). */
export const INK = '#141f66';

export async function loadFont(label: SignatureFont): Promise<void> {
  try {
    await document.fonts.load(`48px "${label}"`);
  } catch {
    // drawn with a fallback font until the file arrives
  }
}

/** Inner padding sealing keeps inside a field box: min(2 pt, 5% of each side). */
export const paddingOf = (width: number, height: number) => Math.min(2, width * 0.05, height * 0.05);

/**
 * Draws `text` on one line as large as fits, centred, like sealing does for a typed signature
 * (size limited by the box height over ascent - descent and by its width). `width`/`height` in points.
 */
export async function drawTypedSignature(canvas: HTMLCanvasElement, text: string, font: SignatureFont, width: number, height: number): Promise<void> {
  await loadFont(font);
  const pxPerPt = 4;
  canvas.width = Math.max(1, Math.round(width * pxPerPt));
  canvas.height = Math.max(1, Math.round(height * pxPerPt));
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  ctx.scale(pxPerPt, pxPerPt);
  const ref = 100;
  ctx.font = `${String(ref)}px "${font}"`;
  const m = ctx.measureText(text);
  const ascent = (m.fontBoundingBoxAscent || ref * 0.9) / ref;
  const descent = (m.fontBoundingBoxDescent || ref * 0.3) / ref;
  const pad = paddingOf(width, height);
  const size = Math.min((height - 2 * pad) / (ascent + descent), (width - 2 * pad) / Math.max(m.width / ref, 1e-6));
  ctx.font = `${String(size)}px "${font}"`;
  ctx.fillStyle = INK;
  ctx.textBaseline = 'alphabetic';
  const textWidth = ctx.measureText(text).width;
  const baseline = (height - (ascent + descent) * size) / 2 + ascent * size;
  ctx.fillText(text, (width - textWidth) / 2, baseline);
}
