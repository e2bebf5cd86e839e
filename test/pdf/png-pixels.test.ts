/**
 * The seal decodes 8-bit RGB(A) PNGs itself (draw/png-pixels.ts): every row filter must give pngjs's pixels, and
 * every other kind of PNG must still be read (through pngjs).
 */
import { randomBytes } from 'node:crypto';
import { PNG, type PNGOptions } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { pngPixels } from '#shared/sealing/draw/png-pixels.ts';

/** A `width` x `height` image of random pixels (some runs of one colour, so every filter has work), encoded as told. */
function png(width: number, height: number, options: PNGOptions, alpha: (i: number) => number): { bytes: Buffer; rgba: Buffer } {
  const image = new PNG({ width, height });
  const noise = randomBytes(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    const flat = i % 7 < 3;
    for (let c = 0; c < 3; c++) image.data[i * 4 + c] = flat ? 40 * c : noise[i * 4 + c] ?? 0;
    image.data[i * 4 + 3] = alpha(i);
  }
  return { bytes: PNG.sync.write(image, options), rgba: image.data };
}

function expectPixels(bytes: Buffer, rgba: Buffer, withAlpha: boolean): void {
  const pixels = pngPixels(bytes);
  const count = pixels.width * pixels.height;
  const reference = PNG.sync.read(bytes).data;
  expect(reference.equals(rgba) || !withAlpha).toBe(true);
  const rgb = Buffer.alloc(count * 3);
  const alpha = Buffer.alloc(count);
  for (let i = 0; i < count; i++) {
    reference.copy(rgb, i * 3, i * 4, i * 4 + 3);
    alpha[i] = reference[i * 4 + 3] ?? 0;
  }
  expect(pixels.rgb.equals(rgb)).toBe(true);
  if (withAlpha) expect(pixels.alpha?.equals(alpha)).toBe(true);
  else expect(pixels.alpha).toBeUndefined();
}

describe('pngPixels', () => {
  for (const filterType of [0, 1, 2, 3, 4, -1]) {
    it(`reads RGBA and RGB rows written with filter ${filterType === -1 ? 'chosen per row' : String(filterType)} as pngjs does`, () => {
      const rgba = png(37, 23, { filterType, colorType: 6 }, (i) => (i * 13) % 256);
      expectPixels(rgba.bytes, rgba.rgba, true);
      const rgb = png(37, 23, { filterType, colorType: 2 }, () => 255);
      expectPixels(rgb.bytes, rgb.rgba, false);
    });
  }

  it('leaves out the soft mask of an RGBA image whose every pixel is opaque', () => {
    const opaque = png(10, 10, { colorType: 6 }, () => 255);
    expectPixels(opaque.bytes, opaque.rgba, false);
  });

  it('reads greyscale, 16-bit and interlaced PNGs through pngjs', () => {
    const grey = png(9, 5, { colorType: 0 }, () => 255);
    expect(pngPixels(grey.bytes).rgb.equals(pngPixels(Buffer.from(PNG.sync.write(PNG.sync.read(grey.bytes), { colorType: 2 }))).rgb)).toBe(true);
    const deep = png(9, 5, { colorType: 6, bitDepth: 16 }, (i) => i);
    expect(pngPixels(deep.bytes).width).toBe(9);
  });

  it('refuses a PNG whose chunk checksum is wrong rather than drawing garbage', () => {
    const { bytes } = png(8, 8, { colorType: 6 }, () => 128);
    const broken = Buffer.from(bytes);
    broken[broken.length - 20] = (broken[broken.length - 20] ?? 0) ^ 0xff; // inside the IDAT data
    expect(() => pngPixels(broken)).toThrow();
  });
});
