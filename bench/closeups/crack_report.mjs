// Reads what `bash bench/device_run.sh closeups` rendered (closeups.tgz unpacked into DIR) and prints, for the cross-O
// view at each magnification and for each path, the pixels that differ from the tile path's image by more than 2/255
// and how many of them show the background (covered by no triangle: a crack along a shared edge); then the background
// pixels of the other cross views through the CPU path. The cross covers the whole 128 x 128 view, so every
// background pixel is a pixel centre that no triangle took.
//   node bench/closeups/crack_report.mjs DIR        (DIR: the closeups/ folder that closeups.tgz unpacks into)
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const { PNG } = createRequire(path.join(here, '../../tests/render_oracle/package.json'))('pngjs');
const dir = process.argv[2];
if (!dir) {
  console.error('usage: node crack_report.mjs DIR');
  process.exit(2);
}
const background = [0x33, 0x66, 0x99];
const read = (name) => {
  const file = path.join(dir, name);
  return fs.existsSync(file) ? PNG.sync.read(fs.readFileSync(file)) : null;
};
const isBackground = (image, i) => background.every((v, c) => image.data[i + c] === v);
const backgroundPixels = (image) => {
  let n = 0;
  for (let i = 0; i < image.data.length; i += 4) if (isBackground(image, i)) ++n;
  return n;
};

const scales = fs.readdirSync(dir).map((f) => /^cross-O-(\d+)\.gpu-tiles\.png$/.exec(f)).filter(Boolean)
  .map((m) => Number(m[1])).sort((a, b) => a - b);
if (scales.length === 0) {
  console.error(`no cross-O-*.gpu-tiles.png in ${dir}: give the closeups/ folder that closeups.tgz unpacks into`);
  process.exit(2);
}
for (const scale of scales) {
  const tiles = read(`cross-O-${scale}.gpu-tiles.png`);
  const row = [`cross-O x${scale}: tile path background ${backgroundPixels(tiles)}`];
  for (const p of ['gpu', 'cpu', 'gpu-vertex']) {
    const image = read(`cross-O-${scale}.${p}.png`);
    if (!image) {
      row.push(`${p} missing`);
      continue;
    }
    let differing = 0, cracked = 0;
    for (let i = 0; i < image.data.length; i += 4) {
      let d = 0;
      for (let c = 0; c < 4; ++c) d = Math.max(d, Math.abs(image.data[i + c] - tiles.data[i + c]));
      if (d <= 2) continue;
      ++differing;
      if (isBackground(image, i)) ++cracked;
    }
    row.push(`${p} differs ${differing} (background ${cracked})`);
  }
  console.log(row.join('; '));
}
for (const view of ['cross-N', 'cross-E', 'cross-Otie']) {
  const image = read(`${view}.cpu.png`);
  if (image) console.log(`${view} cpu: background ${backgroundPixels(image)}`);
}
