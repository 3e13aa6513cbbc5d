// Prints the names of a skeleton's animations or skins (one per line) as the official runtime loads them, for the
// oracle scripts: node list_names.mjs SKELETON ATLAS (animations|skins)
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
const names = what === 'skins' ? data.skins.map((s) => s.name) : data.animations.map((a) => a.name);
process.stdout.write(names.join('\n') + '\n');
