// Prints the expected values of physics_constraint_test.cpp, computed by the official runtime
// (@esotericsoftware/spine-core 4.2.119) on celestial-circus-pro: world transforms of physics-constrained bones
// after fixed steps of 1/60 s (skeleton.update(dt), then updateWorldTransform with the step's Physics mode).
//
//   node tests/runtime/physics_constraint_expected.mjs [SPINE_CORE_INDEX_JS] > /tmp/expected.txt
//
// The runtime is imported from tests/oracle/node_modules (npm ci --prefix tests/oracle) unless a path to its
// dist/index.js is given. The atlas gets stand-in textures; page images are never read.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const runtime = process.argv[2] ??
  path.join(here, '../oracle/node_modules/@esotericsoftware/spine-core/dist/index.js');
const spine = await import(pathToFileURL(path.resolve(runtime)).href);
const examples = process.env.SPINE_EXAMPLES ?? path.join(here, '../../../shared/spine-examples');
const folder = path.join(examples, 'celestial-circus');

class StandInTexture extends spine.Texture { setFilters() {} setWraps() {} dispose() {} }
const atlas = new spine.TextureAtlas(fs.readFileSync(path.join(folder, 'celestial-circus.atlas'), 'utf8'));
for (const page of atlas.pages) page.setTexture(new StandInTexture({ width: page.width, height: page.height }));
const loader = new spine.AtlasAttachmentLoader(atlas);
const json = new spine.SkeletonJson(loader).readSkeletonData(fs.readFileSync(path.join(folder, 'celestial-circus-pro.json'), 'utf8'));
const binary = new spine.SkeletonBinary(loader).readSkeletonData(new Uint8Array(fs.readFileSync(path.join(folder, 'celestial-circus-pro.skel'))));

const dt = 0.016666666666666666;
const num = (v) => String(+v.toPrecision(9));

// The skeleton's position at a step: a path that makes every spring channel work (mirrored in the test).
const moveX = (step) => 60 * Math.sin(step * 0.2);
const moveY = (step) => 25 * Math.cos(step * 0.13);

function print(name, skeleton, bones) {
  console.log(`constexpr ExpectedBone ${name}[] = {`);
  for (const bone of skeleton.bones) {
    if (!bones.has(bone.data.name)) continue;
    const v = [bone.a, bone.b, bone.c, bone.d, bone.worldX, bone.worldY].map(num).join(', ');
    console.log(`    {"${bone.data.name}", ${v}},`);
  }
  console.log('};');
}

const constrained = (data) => new Set(data.physicsConstraints.map((c) => c.bone.name));

// 1. Setup pose, the skeleton moved every step, 120 steps.
for (const [name, data] of [['k_moving_json', json], ['k_moving_binary', binary]]) {
  const skeleton = new spine.Skeleton(data);
  skeleton.setToSetupPose();
  for (let step = 1; step <= 120; step++) {
    skeleton.x = moveX(step);
    skeleton.y = moveY(step);
    skeleton.update(dt);
    skeleton.updateWorldTransform(spine.Physics.update);
  }
  console.log(`// ${name}: setup pose, skeleton at (60 sin(0.2 step), 25 cos(0.13 step)), step 120.`);
  print(name, skeleton, constrained(data));
}

// 2. The wind-idle animation (physics wind/gravity/mix timelines) applied at each step's time, 120 steps.
{
  const skeleton = new spine.Skeleton(json);
  skeleton.setToSetupPose();
  const animation = json.findAnimation('wind-idle');
  for (let step = 1; step <= 120; step++) {
    animation.apply(skeleton, (step - 1) * dt, step * dt, true, null, 1, spine.MixBlend.setup, spine.MixDirection.mixIn);
    skeleton.update(dt);
    skeleton.updateWorldTransform(spine.Physics.update);
  }
  console.log('// k_wind_idle: wind-idle applied at step * dt with MixBlend.setup, step 120.');
  print('k_wind_idle', skeleton, constrained(json));
}

// 3. The Physics modes and teleports, after 60 moving steps (a few bones, one of each channel mix).
{
  const few = new Set(['chest-control', 'hair-back-down', 'wing-front', 'jabot', 'skirt-back', 'underskirt-front']);
  const skeleton = new spine.Skeleton(json);
  skeleton.setToSetupPose();
  let step = 0;
  const advance = (physics) => {
    step++;
    skeleton.x = moveX(step);
    skeleton.y = moveY(step);
    skeleton.update(dt);
    skeleton.updateWorldTransform(physics);
  };
  while (step < 60) advance(spine.Physics.update);
  advance(spine.Physics.pose);
  console.log('// k_after_pose_step: step 61 with Physics.pose (offsets applied, simulation not advanced).');
  print('k_after_pose_step', skeleton, few);
  advance(spine.Physics.update);
  console.log('// k_after_update_step: step 62 with Physics.update (two steps of time accumulated).');
  print('k_after_update_step', skeleton, few);
  // Teleport: move by (500, -300) without the springs noticing.
  skeleton.physicsTranslate(500, -300);
  skeleton.x += 500;
  skeleton.y -= 300;
  skeleton.update(dt);
  skeleton.updateWorldTransform(spine.Physics.update);
  console.log('// k_after_translate: physicsTranslate(500, -300) and the skeleton moved by it, one update step.');
  print('k_after_translate', skeleton, few);
  // Spin the whole skeleton by 40 degrees around (x, y), telling the springs.
  skeleton.physicsRotate(skeleton.x, skeleton.y, 40);
  skeleton.getRootBone().rotation += 40;
  skeleton.update(dt);
  skeleton.updateWorldTransform(spine.Physics.update);
  console.log('// k_after_rotate: physicsRotate(x, y, 40) and the root rotated by 40, one update step.');
  print('k_after_rotate', skeleton, few);
  skeleton.x += 30;
  skeleton.update(dt);
  skeleton.updateWorldTransform(spine.Physics.reset);
  console.log('// k_after_reset: the skeleton moved by 30 in x, one Physics.reset step.');
  print('k_after_reset', skeleton, few);
}
