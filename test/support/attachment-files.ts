/** Real images of each format a signer may attach (no engine needed). */
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';

/** A `width` x `height` PNG of a gradient (a real image every decoder reads). */
export function pngImage(width = 64, height = 48): Uint8Array {
  const png = new PNG({ width, height });
  for (let i = 0; i < width * height; i++) png.data.set([(i * 7) % 256, (i * 3) % 256, 160, 255], i * 4);
  return new Uint8Array(PNG.sync.write(png));
}

/** A `width` x `height` baseline JPEG. */
export function jpegImage(width = 64, height = 48): Uint8Array {
  const data = Buffer.alloc(width * height * 4);
  for (let i = 0; i < width * height; i++) data.set([(i * 5) % 256, 90, (i * 11) % 256, 255], i * 4);
  return new Uint8Array(jpeg.encode({ data, width, height }, 80).data);
}
