// Checks render_reference.mjs against the official formulas on a synthetic skeleton: one uniform-colour page
// (straight, the same page premultiplied with `pma: true`, and a premultiplied page whose colour bytes exceed its
// alpha, a glow), square region attachments in slots with every
// blend mode, with and without a dark colour, over an opaque and a transparent background. Each square's centre
// pixel must be what spine-webgl's premultiplied pipeline gives (two-colour shader, PolygonBatcher blend table),
// within 2/255 per channel (3/255 where the result is translucent: straight alpha is read back through a division).
//
// With --spinegpu, the same squares are drawn by `spinegpu render` through the given path instead, and held to the
// same formulas: the test of spinegpu's blend modes, dark colour and page kinds against the official ones.
//
//   node selftest.mjs                                  (exit 0 and one line per case; exit 1 with the failures)
//   node selftest.mjs --spinegpu BIN --path gpu|gpu-tiles|cpu|gpu-vertex
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PNG } from 'pngjs';
import { parseArgs, renderReference } from './render_reference.mjs';

const TEXEL = [200, 120, 40, 180];  // straight RGBA of every pixel of the page
// A premultiplied page whose texels carry more colour than alpha, as artists paint glows that add light even where
// the alpha is low: the official pipeline blends such bytes as they are (ONE, 1 - source alpha). Multiply cases whose
// shaded colour exceeds its alpha are left out (beyondOneFactor): there the official blend's factor on the destination
// (colour + 1 - alpha) passes 1, which one pipeline for all four modes (dst = src0 + dst * src1) cannot give, as a
// blend factor is clamped to [0, 1]; spinegpu leaves the destination as it was where the official pipeline brightens
// it.
const GLOW = [200, 150, 120, 100];
// Each page: its name, whether the atlas marks it premultiplied, and its bytes.
const PAGES = [
  { name: 'page', pma: false, bytes: TEXEL },
  { name: 'page-pma', pma: true, bytes: [...[0, 1, 2].map((k) => Math.round((TEXEL[k] * TEXEL[3]) / 255)), TEXEL[3]] },
  { name: 'glow-pma', pma: true, bytes: GLOW },
];
const CASES = [
  { blend: 'normal', color: 'ffffffff' },
  { blend: 'normal', color: '80c0ffcc' },
  { blend: 'additive', color: '80c0ffcc' },
  { blend: 'multiply', color: '80c0ffcc' },
  { blend: 'screen', color: '80c0ffcc' },
  { blend: 'normal', color: '80c0ffcc', dark: '402010' },
  { blend: 'multiply', color: 'ffffffff', dark: '204060' },
  { blend: 'additive', color: 'c0c0c0ff', dark: '300000' },
  { blend: 'screen', color: 'ff8040b0', dark: '0060ff' },
  { blend: 'multiply', color: '333333ff', dark: 'ffffff' },  // (a glow's dark term below 0, clamped)
];
const hex = (text, i) => parseInt(text.slice(2 * i, 2 * i + 2), 16) / 255;

function writeFixture(dir) {
  for (const page of PAGES) {
    const png = new PNG({ width: 8, height: 8 });
    for (let i = 0; i < png.data.length; i += 4) png.data.set(page.bytes, i);
    fs.writeFileSync(path.join(dir, `${page.name}.png`), PNG.sync.write(png));
    fs.writeFileSync(path.join(dir, `${page.name}.atlas`),
                     `${page.name}.png\n\tsize: 8, 8\n\tfilter: Linear, Linear\n${page.pma ? '\tpma: true\n' : ''}` +
                     'sq\n\tbounds: 0, 0, 8, 8\n');
  }
  const slots = CASES.map((c, i) => ({
    name: `s${i}`, bone: 'root', attachment: 'sq', color: c.color, ...(c.dark ? { dark: c.dark } : {}),
    ...(c.blend !== 'normal' ? { blend: c.blend } : {}),
  }));
  const attachments = Object.fromEntries(
    CASES.map((c, i) => [`s${i}`, { sq: { x: -200 + 50 * i, y: 0, width: 30, height: 30 } }]));
  fs.writeFileSync(path.join(dir, 'squares.json'), JSON.stringify({
    skeleton: { spine: '4.2.22' }, bones: [{ name: 'root' }], slots,
    skins: [{ name: 'default', attachments }], animations: { idle: {} },
  }));
}

// spine-webgl with premultipliedAlpha, the fragment (two-colour shader): the premultiplied colour S and alpha Sa that
// case `c` shades from `page`'s texel, S clamped to 0..1 as a fixed-point target's blend takes it.
function shaded(c, page) {
  const ta = page.bytes[3] / 255;
  // The premultiplied texel: a premultiplied page's bytes as they are, a straight page's premultiplied on upload.
  const T = [0, 1, 2].map((k) => (page.pma ? page.bytes[k] : Math.round((page.bytes[k] * page.bytes[3]) / 255)) / 255);
  const la = hex(c.color, 3);
  const light = [0, 1, 2].map((k) => hex(c.color, k) * la);
  const dark = c.dark ? [0, 1, 2].map((k) => hex(c.dark, k) * la) : [0, 0, 0];
  const darkA = 1;
  const S = [0, 1, 2].map((k) => Math.min(1, Math.max(0, ((ta - 1) * darkA + 1 - T[k]) * dark[k] + T[k] * light[k])));
  return { S, Sa: ta * la };
}

// Whether case `c` on `page` is multiply with a shaded colour above its alpha (see GLOW).
function beyondOneFactor(c, page) {
  const { S, Sa } = shaded(c, page);
  return c.blend === 'multiply' && S.some((v) => v > Sa);
}

// spine-webgl with premultipliedAlpha: the fragment (shaded) and the blend (PolygonBatcher), read back straight.
function expected(c, background, page) {
  const { S, Sa } = shaded(c, page);
  const Da = background[3] / 255;
  const D = [0, 1, 2].map((k) => (background[k] / 255) * Da);
  let rgb, a;
  switch (c.blend) {
    case 'normal': rgb = S.map((s, k) => s + D[k] * (1 - Sa)); a = Sa + Da * (1 - Sa); break;
    case 'additive': rgb = S.map((s, k) => Math.min(1, s + D[k])); a = Math.min(1, Sa + Da); break;
    case 'multiply': rgb = S.map((s, k) => s * D[k] + D[k] * (1 - Sa)); a = Sa + Da * (1 - Sa); break;
    case 'screen': rgb = S.map((s, k) => s + D[k] * (1 - s)); a = Sa + Da * (1 - Sa); break;
  }
  const straight = a > 0 ? rgb.map((v) => v / a) : [0, 0, 0];
  return [...straight, a].map((v) => Math.round(Math.min(1, Math.max(0, v)) * 255));
}

const argv = process.argv.slice(2);
const option = (name) => (argv.indexOf(name) >= 0 ? argv[argv.indexOf(name) + 1] : undefined);
const spinegpu = option('--spinegpu'), renderPath = option('--path') ?? 'gpu';
if (argv.length !== (spinegpu ? 4 : 0) || (spinegpu && !option('--path'))) {
  process.stderr.write('usage: node selftest.mjs [--spinegpu BIN --path gpu|gpu-tiles|cpu|gpu-vertex]\n');
  process.exit(2);
}
const who = spinegpu ? `spinegpu --path ${renderPath}` : 'render_reference.mjs';

// Draws the squares with the official renderer, or with spinegpu (validation on) when it is given.
async function draw(args) {
  if (!spinegpu) return renderReference(parseArgs(args));
  execFileSync(spinegpu, ['render', ...args, '--path', renderPath, '--validation'],
               { stdio: ['ignore', 'ignore', 'inherit'] });
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'render-oracle-selftest-'));
let failures = 0;
try {
  writeFixture(dir);
  for (const page of PAGES) {
    const atlas = `${page.name}.atlas`;
    for (const background of ['5080a0ff', '00000000']) {
      const out = path.join(dir, 'out.png');
      await draw([
        '--skeleton', path.join(dir, 'squares.json'), '--atlas', path.join(dir, atlas), '--animation', 'idle',
        '--steps', '1', '--width', '500', '--height', '100', '--camera', '1,230,50', '--background', background,
        '--out', out]);
      const png = PNG.sync.read(fs.readFileSync(out));
      const bg = [0, 1, 2, 3].map((k) => parseInt(background.slice(2 * k, 2 * k + 2), 16));
      CASES.forEach((c, i) => {
        if (beyondOneFactor(c, page)) return;
        const x = 230 + (-200 + 50 * i), y = 50;
        const at = (y * png.width + x) * 4;
        const got = Array.from(png.data.subarray(at, at + 4));
        const want = expected(c, bg, page);
        const tolerance = want[3] === 255 ? 2 : 3;
        const ok = got.every((v, k) => Math.abs(v - want[k]) <= tolerance);
        if (!ok) failures++;
        process.stdout.write(`${ok ? 'ok  ' : 'FAIL'} ${who} ${atlas} background ${background} ${c.blend} ` +
                             `light ${c.color}` +
                             `${c.dark ? ` dark ${c.dark}` : ''}: got ${got.join(',')} want ${want.join(',')}\n`);
      });
    }
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
if (failures) {
  process.stderr.write(`selftest: ${failures} case(s) of ${who} differ from the official formulas\n`);
  process.exitCode = 1;
}
