// Prints tests/runtime/timeline_expected.inc: what the official runtime (@esotericsoftware/spine-core 4.2.119, the
// copy installed in tests/oracle) does when it applies the animations of timeline_rig.json, a skeleton that keys
// every 4.2 timeline type, with every blend, both mix directions and several times. timeline_test.cpp applies
// the same timelines with our runtime and compares.
//
//   (cd tests/oracle && npm ci) && node tests/runtime/timeline_expected.mjs > tests/runtime/timeline_expected.inc
//
// Each case: the setup pose, the skeleton time advanced by 0.75 (what physics reset records), every physics
// simulation given a velocity, `base` applied (setup blend, alpha 1) so that the current pose differs from the setup
// pose, then `all` applied from last_time to time. Times and alphas are rounded to floats first, as ours are.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const spine = await import(path.join(here, '../oracle/node_modules/@esotericsoftware/spine-core/dist/index.js'));

// Stand-in atlas: every region the rig names (the pixels are never read).
const atlasText = ['rig.png', 'size: 64, 64', 'filter: Linear, Linear',
  ...['lmesh', 'mesh', 'r1', 'r2', 'seq01', 'seq02', 'seq03', 'seq04', 'wmesh'].flatMap((name, i) =>
    [name, `bounds: ${(i % 8) * 8}, ${Math.floor(i / 8) * 8}, 8, 8`])].join('\n') + '\n';

class StandInTexture extends spine.Texture {
  setFilters() {}
  setWraps() {}
  dispose() {}
}

const atlas = new spine.TextureAtlas(atlasText);
for (const page of atlas.pages) page.setTexture(new StandInTexture({ width: page.width, height: page.height }));
const data = new spine.SkeletonJson(new spine.AtlasAttachmentLoader(atlas))
  .readSkeletonData(fs.readFileSync(path.join(here, 'timeline_rig.json'), 'utf8'));

// The attachment names the dump reports by position (must match timeline_test.cpp's k_attachment_names).
const attachmentNames = ['mesh', 'lmesh', 'wmesh', 'seq', 'r1', 'r2', 'path'];
const f = Math.fround;

function prepare(withBase = true) {
  const skeleton = new spine.Skeleton(data);
  skeleton.setToSetupPose();
  skeleton.update(f(0.75));
  for (const c of skeleton.physicsConstraints) {
    c.xVelocity = 3;
    c.remaining = 0.5;
    c._reset = false;
  }
  if (withBase)
    data.findAnimation('base').apply(skeleton, 0, 0, false, null, 1, spine.MixBlend.setup, spine.MixDirection.mixIn);
  return skeleton;
}

function dump(skeleton, events) {
  const v = [];
  for (const b of skeleton.bones) v.push(b.x, b.y, b.rotation, b.scaleX, b.scaleY, b.shearX, b.shearY, b.inherit);
  for (const s of skeleton.slots) {
    const d = s.darkColor;
    v.push(s.color.r, s.color.g, s.color.b, s.color.a, d ? d.r : 0, d ? d.g : 0, d ? d.b : 0);
    v.push(s.attachment ? attachmentNames.indexOf(s.attachment.name) : -1, s.sequenceIndex);
  }
  for (const c of skeleton.ikConstraints) v.push(c.mix, c.softness, c.bendDirection, c.compress ? 1 : 0, c.stretch ? 1 : 0);
  for (const c of skeleton.transformConstraints) v.push(c.mixRotate, c.mixX, c.mixY, c.mixScaleX, c.mixScaleY, c.mixShearY);
  for (const c of skeleton.pathConstraints) v.push(c.position, c.spacing, c.mixRotate, c.mixX, c.mixY);
  for (const c of skeleton.physicsConstraints) {
    v.push(c.inertia, c.strength, c.damping, c.massInverse, c.wind, c.gravity, c.mix);
    v.push(c._reset ? 1 : 0, c.remaining, c.lastTime, c.xVelocity);
  }
  const deforms = skeleton.slots.map((s) => Array.from(s.deform));
  const drawOrder = skeleton.drawOrder.map((s) => s.data.index);
  const fired = events.flatMap((e) => [e.time, data.events.indexOf(e.data), e.intValue, e.floatValue]);
  return { v, deforms, drawOrder, fired };
}

const num = (x) => {
  if (!Number.isFinite(x)) throw new Error(`non-finite value ${x}`);
  return String(Number(x.toPrecision(9)));
};
// A C++ float literal: always with a point or an exponent before the suffix.
const flt = (x) => {
  const text = num(x);
  return `${/[.e]/.test(text) ? text : `${text}.0`}f`;
};
const list = (a) => `{${a.map(num).join(', ')}}`;
const blendNames = ['setup', 'first', 'replace', 'add'];

const lines = [];
function emit(label, lastTime, time, alpha, blend, direction, loop, withBase = true) {
  const skeleton = prepare(withBase);
  const events = [];
  data.findAnimation('all').apply(skeleton, f(lastTime), f(time), loop, events, f(alpha), blend, direction);
  const d = dump(skeleton, events);
  lines.push(`    {"${label}", ${flt(f(lastTime))}, ${flt(f(time))}, ${flt(f(alpha))}, MixBlend::${blendNames[blend]}, ` +
    `MixDirection::${direction === spine.MixDirection.mixIn ? 'in' : 'out'}, ${loop}, ${withBase},\n     ${list(d.v)},\n` +
    `     {${d.deforms.map(list).join(', ')}},\n     ${list(d.drawOrder)},\n     ${list(d.fired)}},`);
}

// 0.22 and 0.58 fall before the first and after the last bezier sample of the deform curves.
for (const time of [0.1, 0.22, 0.45, 0.58, 0.65, 0.75, 1.2]) {
  for (let blend = 0; blend < 4; blend++) {
    for (const direction of [spine.MixDirection.mixIn, spine.MixDirection.mixOut]) {
      const dir = direction === spine.MixDirection.mixIn ? 'in' : 'out';
      emit(`t=${time} ${blendNames[blend]} ${dir} alpha=0.6`, time - 0.3, time, 0.6, blend, direction, false);
    }
  }
}
for (const time of [0.1, 0.45, 1.2])
  for (let blend = 0; blend < 4; blend++)
    emit(`t=${time} ${blendNames[blend]} in alpha=1`, time - 0.3, time, 1, blend, spine.MixDirection.mixIn, false);
// Without `base`: the deforms start empty, so the deform timelines mix from the setup pose whatever the blend.
for (let blend = 1; blend < 4; blend++)
  for (const time of [0.1, 0.45])
    emit(`t=${time} ${blendNames[blend]} in alpha=0.6 without base`, time - 0.3, time, 0.6, blend,
      spine.MixDirection.mixIn, false, false);
// Looping: the animation (duration 1) wrapped between last_time and time, or did not move.
emit('loop 0.85->1.15', 0.85, 1.15, 1, spine.MixBlend.setup, spine.MixDirection.mixIn, true);
emit('loop 1.9->2.3', 1.9, 2.3, 1, spine.MixBlend.replace, spine.MixDirection.mixIn, true);
emit('loop 0.5->0.5', 0.5, 0.5, 1, spine.MixBlend.setup, spine.MixDirection.mixIn, true);

// Sequence modes: `sequence-modes` keys each mode for one second (index 1, delay 0.1; the last key has delay 0).
const sequenceIndices = [];
for (let i = 0; i <= 160; i++) {
  const skeleton = prepare();
  const time = f(i * 0.05);
  data.findAnimation('sequence-modes').apply(skeleton, time, time, false, null, 1, spine.MixBlend.setup,
    spine.MixDirection.mixIn);
  sequenceIndices.push(skeleton.slots[2].sequenceIndex);
}

// Property ids of every timeline, in each animation's timeline order, with our name for the timeline type.
const typeNames = {
  RotateTimeline: 'rotate', TranslateTimeline: 'translate', TranslateXTimeline: 'translateX',
  TranslateYTimeline: 'translateY', ScaleTimeline: 'scale', ScaleXTimeline: 'scaleX', ScaleYTimeline: 'scaleY',
  ShearTimeline: 'shear', ShearXTimeline: 'shearX', ShearYTimeline: 'shearY', InheritTimeline: 'inherit',
  RGBATimeline: 'rgba', RGBTimeline: 'rgb', AlphaTimeline: 'alpha', RGBA2Timeline: 'rgba2', RGB2Timeline: 'rgb2',
  AttachmentTimeline: 'attachment', DeformTimeline: 'deform', SequenceTimeline: 'sequence',
  DrawOrderTimeline: 'drawOrder', EventTimeline: 'event', IkConstraintTimeline: 'ik',
  TransformConstraintTimeline: 'transform', PathConstraintPositionTimeline: 'pathPosition',
  PathConstraintSpacingTimeline: 'pathSpacing', PathConstraintMixTimeline: 'pathMix',
  PhysicsConstraintInertiaTimeline: 'physicsInertia', PhysicsConstraintStrengthTimeline: 'physicsStrength',
  PhysicsConstraintDampingTimeline: 'physicsDamping', PhysicsConstraintMassTimeline: 'physicsMass',
  PhysicsConstraintWindTimeline: 'physicsWind', PhysicsConstraintGravityTimeline: 'physicsGravity',
  PhysicsConstraintMixTimeline: 'physicsMix', PhysicsConstraintResetTimeline: 'physicsReset',
};
const idLines = [];
for (const animation of data.animations)
  for (const timeline of animation.timelines)
    idLines.push(`    {"${animation.name}", "${typeNames[timeline.constructor.name]}", ` +
      `{${timeline.getPropertyIds().map((id) => `"${id}"`).join(', ')}}},`);

console.log(`// Generated by timeline_expected.mjs from timeline_rig.json with @esotericsoftware/spine-core 4.2.119.
// Do not edit: run the script again. Each case: label, last_time, time, alpha, blend, direction, loop, whether
// 'base' was applied first; the pose values (timeline_test.cpp's dump order); each slot's deform; the draw order;
// fired events (time, event, int, float each).
inline const std::vector<RigCase> k_rig_cases = {
${lines.join('\n')}
};

// sequenceIndex of slot s-seq after applying \`sequence-modes\` at times 0, 0.05, ..., 8.
inline const std::vector<int> k_sequence_mode_indices = ${list(sequenceIndices)};

// Official property ids (Timeline.getPropertyIds) of every timeline: animation, timeline type, ids.
inline const std::vector<PropertyIdsCase> k_property_ids = {
${idLines.join('\n')}
};`);
