// Loads a skeleton export with the official Spine runtime (@esotericsoftware/spine-core, pinned in package.json),
// poses it in the setup pose, plays every animation for a couple of seconds, and prints a JSON summary of what the
// official runtime saw. Exits non-zero, with the runtime's message, when loading or posing fails.
//
//   node load_skeleton.mjs SKELETON.json|SKELETON.skel ATLAS [--seconds S]
//
// The atlas's page images are not read: pages get stand-in textures of the size the atlas states, which is all
// that loading and posing need.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as spine from '@esotericsoftware/spine-core';

class StandInTexture extends spine.Texture {
  setFilters() {}
  setWraps() {}
  dispose() {}
}

function usage() {
  process.stderr.write('usage: node load_skeleton.mjs SKELETON.json|SKELETON.skel ATLAS [--seconds S]\n');
  process.exit(2);
}

function parseArgs(argv) {
  const args = { seconds: 2 };
  const rest = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--seconds') {
      args.seconds = Number(argv[++i]);
      if (!(args.seconds > 0)) usage();
    } else rest.push(argv[i]);
  }
  if (rest.length !== 2) usage();
  [args.skeleton, args.atlas] = rest;
  return args;
}

function loadSkeletonData(skeletonPath, atlasPath) {
  let stage = atlasPath;
  try {
    const atlas = new spine.TextureAtlas(fs.readFileSync(atlasPath, 'utf8'));
    for (const page of atlas.pages) page.setTexture(new StandInTexture({ width: page.width, height: page.height }));
    const loader = new spine.AtlasAttachmentLoader(atlas);
    stage = skeletonPath;
    const bytes = fs.readFileSync(skeletonPath);
    const firstByte = bytes.find((b) => b !== 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0xef && b !== 0xbb && b !== 0xbf);
    const data = firstByte === 0x7b /* '{' */
      ? new spine.SkeletonJson(loader).readSkeletonData(bytes.toString('utf8'))
      : new spine.SkeletonBinary(loader).readSkeletonData(new Uint8Array(bytes));
    return { atlas, data };
  } catch (error) {
    throw new Error(`${stage}: ${error.message}`);
  }
}

function attachmentKind(attachment) {
  if (attachment instanceof spine.RegionAttachment) return 'region';
  if (attachment instanceof spine.MeshAttachment) return attachment.getParentMesh() ? 'linkedmesh' : 'mesh';
  if (attachment instanceof spine.ClippingAttachment) return 'clipping';
  if (attachment instanceof spine.BoundingBoxAttachment) return 'boundingbox';
  if (attachment instanceof spine.PathAttachment) return 'path';
  if (attachment instanceof spine.PointAttachment) return 'point';
  return 'other';
}

function checkFinite(skeleton, where) {
  for (const bone of skeleton.bones) {
    for (const v of [bone.a, bone.b, bone.c, bone.d, bone.worldX, bone.worldY])
      if (!Number.isFinite(v)) throw new Error(`${where}: bone ${bone.data.name} has a non-finite world transform`);
  }
}

// Plays `animation` (looping) from the setup pose for `seconds` at 60 steps per second; returns what happened.
function play(data, animation, seconds) {
  const skeleton = new spine.Skeleton(data);
  skeleton.setToSetupPose();
  skeleton.updateWorldTransform(spine.Physics.update);
  const state = new spine.AnimationState(new spine.AnimationStateData(data));
  const fired = {};  // event name -> {count, first: the first key's values}
  const types = new Set();
  state.addListener({
    start: () => types.add('start'),
    complete: () => types.add('complete'),
    event: (entry, event) => {
      const seen = fired[event.data.name];
      if (seen) seen.count++;
      else fired[event.data.name] = {
        count: 1,
        first: { time: event.time, int: event.intValue, float: event.floatValue, string: event.stringValue,
                 volume: event.volume, balance: event.balance },
      };
    },
  });
  state.setAnimation(0, animation.name, true);
  const dt = 1 / 60;
  const drawOrders = new Set();
  const attachments = new Set();
  for (let step = 0; step < Math.round(seconds * 60); step++) {
    state.update(dt);
    state.apply(skeleton);
    skeleton.update(dt);
    skeleton.updateWorldTransform(spine.Physics.update);
    checkFinite(skeleton, `animation ${animation.name}, step ${step + 1}`);
    drawOrders.add(skeleton.drawOrder.map((slot) => slot.data.index).join(','));
    for (const slot of skeleton.slots) {
      const attachment = slot.getAttachment();
      if (attachment) attachments.add(`${slot.data.name}/${attachment.name}`);
    }
  }
  const timelineTypes = [...new Set(animation.timelines.map((t) => t.constructor.name))].sort();
  return {
    name: animation.name,
    duration: animation.duration,
    timelines: animation.timelines.length,
    timelineTypes,
    eventsFired: fired,
    listenerTypes: [...types].sort(),
    drawOrdersSeen: drawOrders.size,
    attachmentsSeen: attachments.size,
  };
}

function summarize(skeletonPath, atlas, data, seconds) {
  const skeleton = new spine.Skeleton(data);
  skeleton.setToSetupPose();
  skeleton.updateWorldTransform(spine.Physics.update);
  checkFinite(skeleton, 'setup pose');
  const attachmentTypes = {};
  const sequences = [];
  for (const skin of data.skins) {
    for (const entry of skin.getAttachments()) {
      const kind = attachmentKind(entry.attachment);
      attachmentTypes[kind] = (attachmentTypes[kind] || 0) + 1;
      if (entry.attachment.sequence) sequences.push(entry.attachment.name);
    }
  }
  const blendNames = ['normal', 'additive', 'multiply', 'screen'];
  const names = (items) => items.map((item) => item.name);
  return {
    file: path.basename(skeletonPath),
    version: data.version,
    bones: { count: data.bones.length, names: names(data.bones) },
    slots: {
      count: data.slots.length,
      names: names(data.slots),
      blendModes: Object.fromEntries(data.slots.filter((s) => s.blendMode !== spine.BlendMode.Normal)
        .map((s) => [s.name, blendNames[s.blendMode]])),
      twoColor: names(data.slots.filter((s) => s.darkColor)),
    },
    skins: { count: data.skins.length, names: names(data.skins) },
    constraints: {
      ik: names(data.ikConstraints), transform: names(data.transformConstraints),
      path: names(data.pathConstraints), physics: names(data.physicsConstraints),
    },
    attachments: attachmentTypes,
    sequences,
    events: { count: data.events.length, names: names(data.events) },
    animations: {
      count: data.animations.length,
      names: names(data.animations),
      played: data.animations.map((animation) => play(data, animation, seconds)),
    },
    atlas: { pages: atlas.pages.length, regions: atlas.regions.length },
  };
}

const args = parseArgs(process.argv.slice(2));
try {
  const { atlas, data } = loadSkeletonData(args.skeleton, args.atlas);
  process.stdout.write(JSON.stringify(summarize(args.skeleton, atlas, data, args.seconds), null, 1) + '\n');
} catch (error) {
  process.stderr.write(`load_skeleton: ${error.message}\n`);
  process.exit(1);
}
