// Known answers for the atlas filters: which texel filter and which mipmap levels `spinegpu render` samples, by the
// rules OpenGL and Vulkan give for a page's min and mag filters. The page is a 64x64 checkerboard of 1-texel cells
// (black and white, opaque), so its level 0 is black and white texels and every level from 1 on is grey (128, the
// average of 2x2 cells). One square region shows the whole page; the camera's scale s (pixels per texel) and the
// region's scaleY set the level of detail, lambda = log2 of the longer step in texels per pixel:
// max(1/s, 1/(s*scaleY)).
// Inside the square, every pixel must then be:
//   pure:    black or white (level 0 sampled nearest: magnified with a Nearest mag filter, or minified with a Nearest
//            min filter or the nearest level being 0);
//   grey:    128 (level 1 or beyond, the nearest level);
//   mix f:   128f or 255(1 - f) + 128f (nearest texels, linear between levels 0 and 1 at f = lambda), both seen;
//   smooth:  a quarter or more of them at least 20 from black and white (level 0 sampled linearly at magnification);
//   opaque:  alpha 255, to the square's edges (drawn over a transparent background, from an atlas whose second page
//            is larger, so that the checkerboard's layer of the page array has padding to its right and below:
//            sampling past the page's edge must see its edge texels, as clamping to the page does, at level 0 and
//            in the mipmaps, not the padding).
// Each check holds within 3/255. A level of detail one level off, the shorter step taken for the longer, the nearest
// level rounded down, or min and mag filters swapped fails some case.
//
//   node filter_levels.mjs --spinegpu BIN --path gpu|gpu-tiles|cpu|gpu-vertex
//   (exit 0 and one line per case; exit 1 with the failures; 2 on bad arguments)
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PNG } from 'pngjs';

const q = (lambda) => 2 ** -lambda;  // the scale s whose level of detail is lambda (scaleY 1)
const CASES = [
  { filter: 'MipMapNearestLinear, Nearest', s: q(0.25), expect: 'mix', f: 0.25 },
  { filter: 'MipMapNearestLinear, Nearest', s: q(0.75), expect: 'mix', f: 0.75 },
  // The y step is twice the x step: lambda is 0.25 by it, -0.75 (magnified, pure) by the x step.
  { filter: 'MipMapNearestLinear, Nearest', s: 2 * q(0.25), scaleY: 0.5, expect: 'mix', f: 0.25 },
  { filter: 'MipMapNearestNearest, Nearest', s: q(0.25), expect: 'pure' },
  { filter: 'MipMapNearestNearest, Nearest', s: q(0.75), expect: 'grey' },
  { filter: 'MipMapLinearNearest, Linear', s: q(0.75), expect: 'grey' },
  { filter: 'Nearest, Linear', s: q(0.25), expect: 'pure' },
  { filter: 'Nearest, Linear', s: 2, expect: 'smooth' },
  { filter: 'Linear, Nearest', s: 2, expect: 'pure' },
  { filter: 'Linear, Nearest', s: q(0.25), expect: 'smooth' },
  { filter: 'Linear, Linear', s: 2, expect: 'opaque' },
  { filter: 'MipMapLinearLinear, Linear', s: q(2.5), expect: 'opaque' },
];
const SIZE = 160, TOLERANCE = 3;

function writeFixture(dir) {
  const png = new PNG({ width: 64, height: 64 });
  for (let y = 0; y < 64; y++)
    for (let x = 0; x < 64; x++) png.data.set((x + y) % 2 ? [255, 255, 255, 255] : [0, 0, 0, 255], (y * 64 + x) * 4);
  fs.writeFileSync(path.join(dir, 'checker.png'), PNG.sync.write(png));
  const large = new PNG({ width: 128, height: 128 });
  large.data.fill(255);
  fs.writeFileSync(path.join(dir, 'large.png'), PNG.sync.write(large));
  CASES.forEach((c, i) => {
    const second = c.expect === 'opaque' ? `\nlarge.png\n\tsize: 128, 128\nlarge\n\tbounds: 0, 0, 128, 128\n` : '';
    fs.writeFileSync(path.join(dir, `case${i}.atlas`),
                     `checker.png\n\tsize: 64, 64\n\tfilter: ${c.filter}\nchecker\n\tbounds: 0, 0, 64, 64\n${second}`);
    fs.writeFileSync(path.join(dir, `case${i}.json`), JSON.stringify({
      skeleton: { spine: '4.2.22' }, bones: [{ name: 'root' }],
      slots: [{ name: 's', bone: 'root', attachment: 'checker' }],
      skins: [{ name: 'default', attachments: { s: { checker: { width: 64, height: 64, scaleY: c.scaleY ?? 1 } } } }],
      animations: { idle: {} },
    }));
  });
}

// Whether the red values inside the square meet the case's expectation; a line saying what was seen.
function judge(c, values) {
  const near = (v, target) => Math.abs(v - target) <= TOLERANCE;
  const seen = `${values.length} pixels, values ${Math.min(...values)}..${Math.max(...values)}`;
  if (c.expect === 'pure' || c.expect === 'mix') {
    const f = c.expect === 'mix' ? c.f : 0;
    const dark = 128 * f, light = 255 * (1 - f) + 128 * f;
    const ok = values.every((v) => near(v, dark) || near(v, light)) && values.some((v) => near(v, dark)) &&
               values.some((v) => near(v, light));
    return [ok, `${seen}; want each ${dark.toFixed(0)} or ${light.toFixed(0)}, both seen`];
  }
  if (c.expect === 'grey') return [values.every((v) => near(v, 128)), `${seen}; want each 128`];
  if (c.expect === 'opaque') return [values.every((v) => near(v, 255)), `${seen} (alpha); want each 255`];
  const between = values.filter((v) => v >= 20 && v <= 235).length;
  return [between >= values.length / 4, `${seen}; ${between} at least 20 from black and white, want a quarter`];
}

const argv = process.argv.slice(2);
const option = (name) => (argv.indexOf(name) >= 0 ? argv[argv.indexOf(name) + 1] : undefined);
const spinegpu = option('--spinegpu'), renderPath = option('--path');
if (argv.length !== 4 || !spinegpu || !renderPath) {
  process.stderr.write('usage: node filter_levels.mjs --spinegpu BIN --path gpu|gpu-tiles|cpu|gpu-vertex\n');
  process.exit(2);
}
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'filter-levels-'));
let failures = 0;
try {
  writeFixture(dir);
  CASES.forEach((c, i) => {
    const out = path.join(dir, `case${i}.png`);
    execFileSync(spinegpu, ['render', '--skeleton', path.join(dir, `case${i}.json`), '--atlas',
                            path.join(dir, `case${i}.atlas`), '--animation', 'idle', '--steps', '1', '--width',
                            `${SIZE}`, '--height', `${SIZE}`, '--camera', `${c.s},${SIZE / 2},${SIZE / 2}`,
                            '--background', c.expect === 'opaque' ? '00000000' : '000000ff', '--path', renderPath,
                            '--validation', '--out', out],
                 { stdio: ['ignore', 'ignore', 'inherit'] });
    const png = PNG.sync.read(fs.readFileSync(out));
    // The square's pixels at least 2 pixels inside its edges (red); for `opaque`, all of them (alpha).
    const half = [32 * c.s, 32 * c.s * (c.scaleY ?? 1)];
    const margin = c.expect === 'opaque' ? 0 : 2, channel = c.expect === 'opaque' ? 3 : 0;
    const values = [];
    for (let y = 0; y < SIZE; y++)
      for (let x = 0; x < SIZE; x++)
        if (Math.abs(x + 0.5 - SIZE / 2) < half[0] - margin && Math.abs(y + 0.5 - SIZE / 2) < half[1] - margin)
          values.push(png.data[(y * SIZE + x) * 4 + channel]);
    const [ok, line] = judge(c, values);
    if (!ok) failures++;
    process.stdout.write(`${ok ? 'ok  ' : 'FAIL'} --path ${renderPath} filter ${c.filter}, scale ${c.s.toFixed(4)}` +
                         `${c.scaleY ? `, scaleY ${c.scaleY}` : ''}: ${c.expect}${c.f !== undefined ? ` ${c.f}` : ''}` +
                         `: ${line}\n`);
  });
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
if (failures) {
  process.stderr.write(`filter_levels: ${failures} case(s) of --path ${renderPath} sample other levels or filters\n`);
  process.exitCode = 1;
}
