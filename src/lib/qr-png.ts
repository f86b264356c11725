// A QR code as a small PNG: one bit per pixel (black and white), whole pixels per module,
// no row filters, deflated in one synchronous call. The qrcode package's own PNG renderer
// draws 32-bit colour pixels and tries every row filter on each row; for a ticket mail
// that was most of the CPU a booking cost. The symbol itself (version, mask, error
// correction) still comes from qrcode.
import { crc32, deflateSync } from 'node:zlib';
import QRCode from 'qrcode';

export interface QrPngOptions {
  /** Modules of quiet zone on each side. */
  margin: number;
  /** The largest image width wanted, in pixels; each module gets the most whole pixels that fit (at least 1). */
  width: number;
  errorCorrectionLevel: 'L' | 'M' | 'Q' | 'H';
}

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  out.set(data, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A PNG of a black-and-white grid: `dark(row, col)` for `cells` × `cells` cells of `scale` pixels each. */
export function bitmapPng(cells: number, scale: number, dark: (row: number, col: number) => boolean): Buffer {
  const width = cells * scale;
  const rowBytes = 1 + Math.ceil(width / 8); // a filter byte (0: none), then 8 pixels a byte, 1 = white
  const raw = Buffer.alloc(rowBytes * width);
  for (let r = 0; r < cells; r++) {
    const line = Buffer.alloc(rowBytes, 0xff);
    line[0] = 0;
    for (let c = 0; c < cells; c++) {
      if (!dark(r, c)) continue;
      for (let x = c * scale; x < (c + 1) * scale; x++) line[1 + (x >> 3)]! &= ~(0x80 >> (x & 7));
    }
    for (let y = r * scale; y < (r + 1) * scale; y++) line.copy(raw, y * rowBytes);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(width, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale
  // compression, filter method, interlace: 0
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', new Uint8Array(0)),
  ]);
}

/** The QR code of `text` as a PNG. */
export function qrPng(text: string, options: QrPngOptions): Buffer {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: options.errorCorrectionLevel });
  const cells = modules.size + 2 * options.margin;
  const scale = Math.max(1, Math.floor(options.width / cells));
  const m = options.margin;
  return bitmapPng(
    cells,
    scale,
    (r, c) =>
      r >= m && c >= m && r < m + modules.size && c < m + modules.size && modules.get(r - m, c - m) === 1,
  );
}
