import jsQR from 'jsqr';
import { PNG } from 'pngjs';

/** Decodes the QR code in a PNG back to its text. */
export function decodeQr(png: Buffer): string | undefined {
  const image = PNG.sync.read(png);
  return jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data;
}
