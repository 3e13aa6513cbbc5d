// Prints the official runtime's (@esotericsoftware/spine-core 4.2.119, the copy in tests/oracle) curve values that
// curve_test.cpp pastes: spineboy-pro `run`'s torso rotate curve (JSON and binary exports), its hip translate
// applied alone, and hero-pro `attack`'s mouth and head deforms applied alone.
//
//   node tests/runtime/curve_expected.mjs [SPINE_EXAMPLES_DIR]
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const spine = await import(path.join(here, '../oracle/node_modules/@esotericsoftware/spine-core/dist/index.js'));
const examples = process.argv[2] ?? path.join(here, '../../../shared/spine-examples');

class StandInTexture extends spine.Texture {
  setFilters() {}
  setWraps() {}
  dispose() {}
}

function load(folder, file) {
  const atlas = new spine.TextureAtlas(fs.readFileSync(path.join(examples, folder, `${folder}.atlas`), 'utf8'));
  for (const page of atlas.pages) page.setTexture(new StandInTexture({ width: page.width, height: page.height }));
  const loader = new spine.AtlasAttachmentLoader(atlas);
  const bytes = fs.readFileSync(path.join(examples, folder, file));
  return file.endsWith('.json') ? new spine.SkeletonJson(loader).readSkeletonData(bytes.toString('utf8'))
    : new spine.SkeletonBinary(loader).readSkeletonData(new Uint8Array(bytes));
}

const f = Math.fround;
const fmt = (values) => values.map((v) => String(Number(v.toPrecision(9)))).join(', ');
const rotateTimes = [0, 0.0004, 0.004, 0.05, 0.1, 0.133, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.66, 0.7];

for (const file of ['spineboy-pro.json', 'spineboy-pro.skel']) {
  const data = load('spineboy', file);
  const run = data.findAnimation('run');
  const torso = data.findBone('torso').index, hip = data.findBone('hip').index;
  const rotate = run.timelines.find((t) => t instanceof spine.RotateTimeline && t.boneIndex === torso);
  console.log(`${file} torso rotate getCurveValue:`, fmt(rotateTimes.map((t) => rotate.getCurveValue(f(t)))));
  const translate = run.timelines.find((t) => t instanceof spine.TranslateTimeline && t.boneIndex === hip);
  const xy = [];
  for (const t of [0.05, 0.2, 0.3, 0.45, 0.6]) {
    const skeleton = new spine.Skeleton(data);
    translate.apply(skeleton, 0, f(t), null, 1, spine.MixBlend.setup, spine.MixDirection.mixIn);
    xy.push(skeleton.bones[hip].x, skeleton.bones[hip].y);
  }
  console.log(`${file} hip translate (x, y) at 0.05, 0.2, 0.3, 0.45, 0.6:`, fmt(xy));
}

const hero = load('hero', 'hero-pro.json');
const attack = hero.findAnimation('attack');
for (const [slotName, start, count] of [['mouth', 0, 8], ['head', 20, 8]]) {
  const slot = hero.findSlot(slotName).index;
  const deform = attack.timelines.find((t) => t instanceof spine.DeformTimeline && t.slotIndex === slot);
  console.log(`hero-pro attack ${slotName} deform frames:`, fmt(Array.from(deform.frames)));
  for (const t of [0.01, 0.02, 0.1, 0.19, 0.2, 0.3]) {
    const skeleton = new spine.Skeleton(hero);
    skeleton.setToSetupPose();
    deform.apply(skeleton, 0, f(t), null, 1, spine.MixBlend.setup, spine.MixDirection.mixIn);
    const frame = spine.Timeline.search1(deform.frames, f(t));
    console.log(`  t=${t} percent=${fmt([deform.getCurvePercent(f(t), frame)])} deform[${start}..${start + count}):`,
      fmt(skeleton.slots[slot].deform.slice(start, start + count)));
  }
}
