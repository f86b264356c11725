import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PNG } from 'pngjs';
import QRCode from 'qrcode';
import { bitmapPng, qrPng } from '../../src/lib/qr-png.js';
import { ticketQrPng } from '../../src/modules/tickets/ticket-mail.js';
import { decodeQr } from '../helpers/qr.js';

describe('QR PNG', () => {
  it('draws each cell as scale × scale pixels, dark black and light white, with every chunk CRC checked by the decoder', () => {
    // A 3 × 3 checkerboard, 5 pixels a cell: 15 pixels wide, which is not a whole number of bytes.
    const png = PNG.sync.read(
      bitmapPng(3, 5, (r, c) => (r + c) % 2 === 0),
      { checkCRC: true } as never,
    );
    assert.equal(png.width, 15);
    assert.equal(png.height, 15);
    for (let y = 0; y < 15; y++) {
      for (let x = 0; x < 15; x++) {
        const dark = (Math.floor(y / 5) + Math.floor(x / 5)) % 2 === 0;
        const i = (y * 15 + x) * 4;
        assert.deepEqual(
          [...png.data.subarray(i, i + 4)],
          dark ? [0, 0, 0, 255] : [255, 255, 255, 255],
          `pixel ${x},${y}`,
        );
      }
    }
  });

  it('matches the symbol qrcode makes, module for module, inside a quiet zone', () => {
    const text = 'reg_abcdefghijklmnop';
    const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
    const png = PNG.sync.read(qrPng(text, { errorCorrectionLevel: 'M', margin: 2, width: 320 }));
    const scale = Math.floor(320 / (modules.size + 4));
    assert.equal(png.width, (modules.size + 4) * scale);
    const at = (x: number, y: number) => png.data[(y * png.width + x) * 4] === 0;
    for (let r = -2; r < modules.size + 2; r++) {
      for (let c = -2; c < modules.size + 2; c++) {
        const inside = r >= 0 && c >= 0 && r < modules.size && c < modules.size;
        const want = inside && modules.get(r, c) === 1;
        // The centre pixel of the module.
        assert.equal(
          at((c + 2) * scale + (scale >> 1), (r + 2) * scale + (scale >> 1)),
          want,
          `module ${r},${c}`,
        );
      }
    }
  });

  it('decodes back to the bare ticket id, for short and long ids', () => {
    for (const id of [
      'reg_x',
      'reg_abcdefghijklmnopqrstuv',
      'tkt_0123456789abcdef',
      `reg_${'z'.repeat(120)}`,
    ]) {
      const png = ticketQrPng(id);
      assert.equal(decodeQr(png), id);
      assert.ok(PNG.sync.read(png).width <= 320, 'at most 320 pixels wide');
    }
  });
});
