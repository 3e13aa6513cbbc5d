// Prints the expected values of path_constraint_test.cpp, computed by the official runtime
// (@esotericsoftware/spine-core 4.2.119): the world transforms of every path-constrained bone, for the test's own
// rig (embedded in the test as R"json(...)json") and for the example skeletons, in the setup pose and at one time of
// an animation (Animation.apply with MixBlend.setup, then updateWorldTransform(Physics.update)).
//
//   node tests/runtime/path_constraint_expected.mjs [SPINE_CORE_INDEX_JS] > /tmp/expected.txt
//
// The runtime is imported from tests/oracle/node_modules (npm ci --prefix tests/oracle) unless a path to its
// dist/index.js is given. Atlases get stand-in textures; page images are never read.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const runtime = process.argv[2] ??
  path.join(here, '../oracle/node_modules/@esotericsoftware/spine-core/dist/index.js');
const spine = await import(pathToFileURL(path.resolve(runtime)).href);
const examples = process.env.SPINE_EXAMPLES ?? path.join(here, '../../../shared/spine-examples');

class StandInTexture extends spine.Texture { setFilters() {} setWraps() {} dispose() {} }

function loadAtlas(file) {
  const atlas = new spine.TextureAtlas(fs.readFileSync(file, 'utf8'));
  for (const page of atlas.pages) page.setTexture(new StandInTexture({ width: page.width, height: page.height }));
  return atlas;
}

function readData(file, loader) {
  if (file.endsWith('.skel')) return new spine.SkeletonBinary(loader).readSkeletonData(new Uint8Array(fs.readFileSync(file)));
  return new spine.SkeletonJson(loader).readSkeletonData(fs.readFileSync(file, 'utf8'));
}

const num = (v) => String(+v.toPrecision(9));

// Poses `data` (skin, animation at `time`) and prints its path-constrained bones as a C++ array named `name`.
function dump(name, data, skin, animation, time) {
  const skeleton = new spine.Skeleton(data);
  if (skin) skeleton.setSkinByName(skin);
  skeleton.setToSetupPose();
  if (animation)
    data.findAnimation(animation).apply(skeleton, time, time, true, null, 1, spine.MixBlend.setup, spine.MixDirection.mixIn);
  skeleton.updateWorldTransform(spine.Physics.update);
  const names = new Set();
  for (const c of skeleton.pathConstraints) if (c.isActive()) for (const b of c.bones) names.add(b.data.name);
  console.log(`// skin ${skin ?? '-'}, animation ${animation ?? '-'} at ${time}: name, a, b, c, d, x, y.`);
  console.log(`constexpr ExpectedBone ${name}[] = {`);
  for (const bone of skeleton.bones) {
    if (!names.has(bone.data.name)) continue;
    const v = [bone.a, bone.b, bone.c, bone.d, bone.worldX, bone.worldY].map(num).join(', ');
    console.log(`    {"${bone.data.name}", ${v}},`);
  }
  console.log('};');
}

// The test's rig, from the test source.
const source = fs.readFileSync(path.join(here, 'path_constraint_test.cpp'), 'utf8');
const rigJson = source.slice(source.indexOf('R"json(') + 7, source.indexOf(')json"'));
const rig = new spine.SkeletonJson(new spine.AtlasAttachmentLoader(new spine.TextureAtlas(''))).readSkeletonData(rigJson);
dump('k_rig_setup', rig, null, null, 0);
dump('k_rig_move', rig, null, 'move', 0.6);

const cases = [
  ['k_vine', 'vine', 'vine-pro.json', null, 'grow', 3.1],
  ['k_stretchyman', 'stretchyman', 'stretchyman-pro.json', null, 'sneak', 0.7],
  ['k_hero', 'hero', 'hero-pro.json', 'weapon/morningstar', 'attack', 0.2],
  ['k_tank', 'tank', 'tank-pro.skel', null, 'drive', 1.3],
  ['k_mix_and_match', 'mix-and-match', 'mix-and-match-pro.json', 'full-skins/girl', 'walk', 0.4],
];
for (const [name, folder, file, skin, animation, time] of cases) {
  const loader = new spine.AtlasAttachmentLoader(loadAtlas(path.join(examples, folder, folder + '.atlas')));
  const data = readData(path.join(examples, folder, file), loader);
  console.log(`// ${file}`);
  dump(name, data, skin, animation, time);
}
