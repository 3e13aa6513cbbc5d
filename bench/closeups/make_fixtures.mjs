// Writes the close-up skeletons of tests/gpu/tile_rasterizer_test.cpp (the same meshes, pages and names) into DIR, for
// the device checks (bench/device_run.sh checks renders them through `spinegpu render`, bench/closeups/views.tsv
// says how): the fan (fan.json, fan.atlas, fan.png: four triangles around an inner vertex, wound both ways, from a
// translucent gradient page) and the cross (cross.json, cross.atlas, cross.png: four triangles between the axes, each
// with its own vertices and colour).
//   node bench/closeups/make_fixtures.mjs DIR
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const { PNG } = createRequire(path.join(here, '../../tests/render_oracle/package.json'))('pngjs');
const dir = process.argv[2];
if (!dir) {
  console.error('usage: node make_fixtures.mjs DIR');
  process.exit(2);
}
fs.mkdirSync(dir, { recursive: true });

function page(name, texel) {
  const png = new PNG({ width: 64, height: 64 });
  for (let y = 0; y < 64; y++) for (let x = 0; x < 64; x++) png.data.set(texel(x, y), (y * 64 + x) * 4);
  fs.writeFileSync(path.join(dir, `${name}.png`), PNG.sync.write(png));
  fs.writeFileSync(path.join(dir, `${name}.atlas`),
                   `${name}.png\nsize: 64, 64\nfilter: Linear, Linear\n${name}\n  bounds: 0, 0, 64, 64\n`);
}

function skeleton(name, mesh) {
  fs.writeFileSync(path.join(dir, `${name}.json`), JSON.stringify({
    skeleton: { spine: '4.2.00' }, bones: [{ name: 'root' }], slots: [{ name: 's', bone: 'root', attachment: name }],
    skins: [{ name: 'default', attachments: { s: { [name]: { type: 'mesh', ...mesh } } } }],
    animations: { still: {} } }));
}

page('fan', (x, y) => [x * 4, y * 4, 200, 160]);
skeleton('fan', {
  hull: 4, uvs: [0.02, 0.97, 0.96, 0.91, 0.93, 0.08, 0.11, 0.03, 0.31, 0.42],
  triangles: [0, 1, 4, 1, 2, 4, 2, 4, 3, 3, 4, 0],
  vertices: [-101.37, -79.13, 118.61, -61.29, 109.83, 97.41, 9.47, 151.73, -20.5, 40.3] });
page('cross', (x, y) => {
  const right = x >= 32, low = y >= 32;
  return [right ? 40 : 230, low ? 200 : 60, right !== low ? 220 : 30, 255];
});
skeleton('cross', {
  hull: 12,
  uvs: [0.2, 0.2, 0.2, 0.3, 0.3, 0.2, 0.7, 0.2, 0.7, 0.3, 0.8, 0.2, 0.2, 0.7, 0.2, 0.8, 0.3, 0.7, 0.7, 0.7, 0.7, 0.8,
        0.8, 0.7],
  triangles: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
  vertices: [0, 0, 0, 100, 100, 0, 0, 0, 0, -100, 100, 0, 0, 0, 0, -100, -100, 0, 0, 0, 0, 100, -100, 0] });
