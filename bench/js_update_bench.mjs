// The official JS runtime (@esotericsoftware/spine-core 4.2.119, installed in tests/oracle) timed on the same work
// as `spinegpu bench --paths update --threads 1`: N characters of one skeleton, each a random looping animation at
// a random phase, per frame state.update(dt), state.apply(skeleton), skeleton.update(dt),
// skeleton.updateWorldTransform(Physics.update). Prints one JSON line like bench's rows (median ms per frame).
//   node bench/js_update_bench.mjs SKELETON ATLAS [CHARACTERS=1000] [FRAMES=120]
// bench/compare_js.sh runs it and spinegpu alternately for a ratio that survives a noisy machine.
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, '../tests/oracle/package.json'));
const spine = await import(require.resolve('@esotericsoftware/spine-core'));
const { loadSkeletonData } = await import(path.join(here, '../tests/oracle/pose_stepping.mjs'));

const [skeletonPath, atlasPath, countText = '1000', framesText = '120'] = process.argv.slice(2);
if (!skeletonPath || !atlasPath) {
  console.error('usage: node js_update_bench.mjs SKELETON ATLAS [CHARACTERS] [FRAMES]');
  process.exit(2);
}
const count = Number(countText), frames = Number(framesText), dt = 1 / 60;
const data = loadSkeletonData(spine, skeletonPath, atlasPath);
// A small deterministic generator (the crowd differs from spinegpu's mt19937 one, but is drawn the same way).
let seed = 1234;
const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
const crowd = [];
for (let i = 0; i < count; i++) {
  const skeleton = new spine.Skeleton(data);
  skeleton.setToSetupPose();
  const state = new spine.AnimationState(new spine.AnimationStateData(data));
  const animation = data.animations[random() % data.animations.length];
  const entry = state.setAnimationWith(0, animation, true);
  entry.trackTime = animation.duration * (random() % 1000) / 1000;
  crowd.push({ skeleton, state });
}
const step = () => {
  for (const { skeleton, state } of crowd) {
    state.update(dt);
    state.apply(skeleton);
    skeleton.update(dt);
    skeleton.updateWorldTransform(spine.Physics.update);
  }
};
for (let i = 0; i < 20; i++) step();
const times = [];
for (let i = 0; i < frames; i++) {
  const start = process.hrtime.bigint();
  step();
  times.push(Number(process.hrtime.bigint() - start) / 1e6);
}
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)];
console.log(JSON.stringify({ skeleton: path.basename(skeletonPath).replace(/\.[^.]*$/, ''), characters: count,
  path: 'update-spine-core-js', threads: 1, frames, update_ms: median,
  update_us_per_character: median * 1000 / count,
  runtime: `spine-core ${require('@esotericsoftware/spine-core/package.json').version}` }));
