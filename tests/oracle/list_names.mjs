// Prints the names of a skeleton's animations or skins (one per line) as the official runtime loads them, for the
// oracle scripts: node list_names.mjs SKELETON ATLAS (animations|skins|drawn-skins). drawn-skins: the skins that
// hold a region or mesh attachment, those holding most first (in skeleton order among equals).
import * as fs from 'node:fs';
import * as spine from '@esotericsoftware/spine-core';

class StandInTexture extends spine.Texture {
  setFilters() {}
  setWraps() {}
  dispose() {}
}

const [skeletonPath, atlasPath, what] = process.argv.slice(2);
const atlas = new spine.TextureAtlas(fs.readFileSync(atlasPath, 'utf8'));
for (const page of atlas.pages) page.setTexture(new StandInTexture({ width: page.width, height: page.height }));
const loader = new spine.AtlasAttachmentLoader(atlas);
const bytes = fs.readFileSync(skeletonPath);
const data = skeletonPath.endsWith('.json')
  ? new spine.SkeletonJson(loader).readSkeletonData(bytes.toString('utf8'))
  : new spine.SkeletonBinary(loader).readSkeletonData(new Uint8Array(bytes));
const drawn = (skin) => skin.getAttachments().filter(
  (e) => e.attachment instanceof spine.RegionAttachment || e.attachment instanceof spine.MeshAttachment).length;
let names;
if (what === 'skins') names = data.skins.map((s) => s.name);
else if (what === 'drawn-skins')
  names = data.skins.map((s) => [s.name, drawn(s)]).filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1]).map(([s]) => s);
else names = data.animations.map((a) => a.name);
process.stdout.write(names.join('\n') + '\n');
