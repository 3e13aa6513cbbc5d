// Converts a window dump written by `xwd` (X Window Dump, version 7, a TrueColor visual with 8-bit channels at 24 or
// 32 bits per pixel) into an opaque RGBA PNG, so that what an X server shows can be compared with compare_images.mjs:
//
//   node xwd_to_png.mjs IN.xwd OUT.png
//
// Exit 0 on success; 1 with a message when the dump is not such a file.
import * as fs from 'node:fs';
import { PNG } from 'pngjs';

function fail(why) {
  console.error(`xwd_to_png: ${why}`);
  process.exit(1);
}

const [input, output] = process.argv.slice(2);
if (!input || !output) fail('usage: node xwd_to_png.mjs IN.xwd OUT.png');
const bytes = fs.readFileSync(input);
if (bytes.length < 100) fail(`${input}: too short for a dump's header`);
// The header's 25 numbers are written in the dumping machine's order: version 7 tells which.
const bigEndian = bytes.readUInt32BE(4) === 7;
if (!bigEndian && bytes.readUInt32LE(4) !== 7) fail(`${input}: not an X window dump (version 7)`);
const field = (i) => (bigEndian ? bytes.readUInt32BE(4 * i) : bytes.readUInt32LE(4 * i));
const [headerSize, , format, , width, height, , byteOrder, , , , bitsPerPixel, bytesPerLine, visualClass,
       redMask, greenMask, blueMask, , , colours] = Array.from({ length: 20 }, (_, i) => field(i));
if (format !== 2) fail(`${input}: pixmap format ${format}, not ZPixmap (2)`);
if (visualClass !== 4 && visualClass !== 5) fail(`${input}: visual class ${visualClass}, not TrueColor`);
if (bitsPerPixel !== 32 && bitsPerPixel !== 24) fail(`${input}: ${bitsPerPixel} bits per pixel`);
const start = headerSize + 12 * colours;
if (bytes.length < start + bytesPerLine * height) fail(`${input}: the pixels are cut short`);
const shift = (mask) => { let s = 0; while (mask !== 0 && ((mask >>> s) & 1) === 0) s++; return s; };
const channels = [redMask, greenMask, blueMask].map((mask) => ({ mask, shift: shift(mask) }));
for (const c of channels)
  if (c.mask >>> c.shift !== 0xff) fail(`${input}: a colour mask 0x${c.mask.toString(16)} is not 8 bits wide`);
if (visualClass !== 4) fail(`${input}: a DirectColor visual (its colour map is not read)`);
const step = bitsPerPixel / 8;
const png = new PNG({ width, height });
for (let y = 0; y < height; y++) {
  for (let x = 0; x < width; x++) {
    const at = start + y * bytesPerLine + x * step;
    let pixel = 0;
    for (let k = 0; k < step; k++) {
      const byte = bytes[at + k];
      pixel = byteOrder === 0 ? pixel + byte * 2 ** (8 * k) : pixel * 256 + byte;  // LSBFirst (0) or MSBFirst
    }
    const out = 4 * (y * width + x);
    channels.forEach((c, i) => { png.data[out + i] = ((pixel & c.mask) >>> c.shift) & 0xff; });
    png.data[out + 3] = 255;
  }
}
fs.writeFileSync(output, PNG.sync.write(png));
