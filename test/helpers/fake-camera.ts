// Chromium's fake camera plays a .y4m file in a loop: one frame of a PNG (a ticket's QR),
// centred on white, is what a door phone's camera "sees" in the browser tests.
import { PNG } from 'pngjs';

/** One 4:2:0 frame of the PNG, centred on white: what Chromium's fake camera plays in a loop. */
export function y4mOf(png: Buffer, width = 640, height = 480): Buffer {
  const img = PNG.sync.read(png);
  const y = Buffer.alloc(width * height, 255);
  const left = Math.floor((width - img.width) / 2);
  const top = Math.floor((height - img.height) / 2);
  for (let row = 0; row < img.height; row++) {
    for (let col = 0; col < img.width; col++) {
      const i = (row * img.width + col) * 4;
      const a = img.data[i + 3]! / 255;
      const luma = 0.299 * img.data[i]! + 0.587 * img.data[i + 1]! + 0.114 * img.data[i + 2]!;
      y[(top + row) * width + left + col] = Math.round(luma * a + 255 * (1 - a));
    }
  }
  const chroma = Buffer.alloc((width / 2) * (height / 2) * 2, 128);
  return Buffer.concat([
    Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\n`),
    Buffer.from('FRAME\n'),
    y,
    chroma,
  ]);
}
