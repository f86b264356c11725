import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';

// jsqr is CommonJS typed as an ES default export; take the function either way.
type JsQr = (data: Uint8ClampedArray, width: number, height: number) => { data: string } | null;
const jsQR = ((jsQRModule as unknown as { default?: JsQr }).default ??
  (jsQRModule as unknown as JsQr)) as JsQr;

/** Decodes the QR code in a PNG back to its text. */
export function decodeQr(png: Buffer): string | undefined {
  const image = PNG.sync.read(png);
  return jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data;
}
