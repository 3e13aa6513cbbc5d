// The official runtime's setup pose of a skeleton, for checking our skeleton code (bones, inherit modes, skins, the
// update cache, IK and transform constraints, world vertices) without any animation: builds a Skeleton, runs the
// given operations in order, calls updateWorldTransform once, and prints every bone's world transform, every slot's
// attachment and world vertices (in draw order), and the update cache.
//
//   node setup_pose_dump.mjs SKELETON ATLAS [OPERATION...]
//
// Operations on the skeleton data, run first (before the Skeleton is built, as its update cache reads them):
//   data.transform:NAME.FIELD=VALUE   a TransformConstraintData field (local relative offsetRotation offsetX offsetY
//                                     offsetScaleX offsetScaleY offsetShearY)
//   data.ik:NAME.FIELD=VALUE          an IkConstraintData field (uniform)
// Operations on the skeleton, run in the order given (a new Skeleton is already in the setup pose with no skin):
//   skin=NAME[+NAME...]        setSkin(NAME), or a new Skin("custom") with addSkin of each NAME in order
//   noskin                     setSkin(null)
//   setup                      setToSetupPose()
//   bone:NAME.FIELD=VALUE      sets a Bone field (x y rotation scaleX scaleY shearX shearY inherit)
//   ik:NAME.FIELD=VALUE        sets an IkConstraint field (mix softness bendDirection compress stretch)
//   transform:NAME.FIELD=VALUE sets a TransformConstraint field (mixRotate mixX mixY mixScaleX mixScaleY mixShearY)
//   skeleton.FIELD=VALUE       sets a Skeleton field (x y scaleX scaleY)
//   attachment:SLOT=NAME       setAttachment(SLOT, NAME), NAME "-" for none
//   deform:SLOT=VALUE          gives the slot's vertex attachment a deform: float k is the setup vertex value
//                              (unweighted; 0 for weighted, whose deform holds offsets) plus ((k % 7) - 3) * VALUE
//   sequence:SLOT=INDEX        sets the slot's sequenceIndex
//   applied                    after the world transforms, also prints every bone's applied pose as
//                              updateAppliedTransform recovers it from the world transform
//   physics=MODE               the Physics mode of the final updateWorldTransform (none, reset, update, pose;
//                              default none)
// Booleans are 0/1; inherit is the Inherit enum's number.
//
// Output, one record per line, numbers as JavaScript prints doubles:
//   bone NAME a b c d worldX worldY
//   slot NAME ATTACHMENT|- COUNT v0 v1 ...        (COUNT world vertex floats: regions and vertex attachments)
//   applied NAME x y rotation scaleX scaleY shearX shearY   (with the `applied` operation)
//   cache KIND NAME                                (the update cache in order; KIND bone, ik, transform, path,
//                                                   physics)
// Names are percent-encoded (encodeURIComponent: some example bones have spaces in their names).
// The atlas's page images are not read: pages get stand-in textures of the stated size.
import * as fs from 'node:fs';
import * as spine from '@esotericsoftware/spine-core';

class StandInTexture extends spine.Texture {
  setFilters() {}
  setWraps() {}
  dispose() {}
}

function fail(message) {
  process.stderr.write(`setup_pose_dump: ${message}\n`);
  process.exit(1);
}

function load(skeletonPath, atlasPath) {
  const atlas = new spine.TextureAtlas(fs.readFileSync(atlasPath, 'utf8'));
  for (const page of atlas.pages) page.setTexture(new StandInTexture({ width: page.width, height: page.height }));
  const loader = new spine.AtlasAttachmentLoader(atlas);
  const bytes = fs.readFileSync(skeletonPath);
  return /\.json$/i.test(skeletonPath) ? new spine.SkeletonJson(loader).readSkeletonData(bytes.toString('utf8'))
                                       : new spine.SkeletonBinary(loader).readSkeletonData(new Uint8Array(bytes));
}

function findOrFail(value, what) {
  if (!value) fail(`no ${what}`);
  return value;
}

function parseValue(text) {
  const n = Number(text);
  if (!Number.isFinite(n)) fail(`not a number: '${text}'`);
  return n;
}

function runDataOp(data, op) {
  const m = /^data\.(transform|ik):([^.=]+)\.(\w+)=(.+)$/.exec(op);
  if (!m) fail(`unknown operation '${op}'`);
  const [, kind, name, field, value] = m;
  const target = kind === 'ik' ? data.findIkConstraint(name) : data.findTransformConstraint(name);
  findOrFail(target, `${kind} constraint ${name}`);
  if (!(field in target)) fail(`${kind} constraint data has no field ${field}`);
  target[field] = typeof target[field] === 'boolean' ? value === '1' : parseValue(value);
}

function run(skeleton, data, op, state) {
  let m;
  if ((m = /^skin=(.+)$/.exec(op))) {
    const names = m[1].split('+');
    if (names.length === 1) {
      skeleton.setSkin(findOrFail(data.findSkin(names[0]), `skin ${names[0]}`));
    } else {
      const custom = new spine.Skin('custom');
      for (const name of names) custom.addSkin(findOrFail(data.findSkin(name), `skin ${name}`));
      skeleton.setSkin(custom);
    }
  } else if (op === 'noskin') {
    skeleton.setSkin(null);
  } else if (op === 'setup') {
    skeleton.setToSetupPose();
  } else if ((m = /^(bone|ik|transform):([^.=]+)\.(\w+)=(.+)$/.exec(op))) {
    const [, kind, name, field, value] = m;
    const target = kind === 'bone' ? skeleton.findBone(name)
      : kind === 'ik' ? skeleton.findIkConstraint(name) : skeleton.findTransformConstraint(name);
    findOrFail(target, `${kind} ${name}`);
    if (!(field in target)) fail(`${kind} has no field ${field}`);
    target[field] = typeof target[field] === 'boolean' ? value === '1' : parseValue(value);
  } else if ((m = /^skeleton\.(x|y|scaleX|scaleY)=(.+)$/.exec(op))) {
    skeleton[m[1]] = parseValue(m[2]);
  } else if ((m = /^attachment:([^=]+)=(.+)$/.exec(op))) {
    skeleton.setAttachment(m[1], m[2] === '-' ? null : m[2]);
  } else if ((m = /^deform:([^=]+)=(.+)$/.exec(op))) {
    const slot = findOrFail(skeleton.findSlot(m[1]), `slot ${m[1]}`);
    const attachment = slot.getAttachment();
    if (!(attachment instanceof spine.VertexAttachment)) fail(`slot ${m[1]} shows no vertex attachment`);
    const step = parseValue(m[2]);
    const count = attachment.bones ? attachment.vertices.length / 3 * 2 : attachment.worldVerticesLength;
    slot.deform = [];
    for (let k = 0; k < count; k++)
      slot.deform.push((attachment.bones ? 0 : attachment.vertices[k]) + ((k % 7) - 3) * step);
  } else if ((m = /^sequence:([^=]+)=(.+)$/.exec(op))) {
    findOrFail(skeleton.findSlot(m[1]), `slot ${m[1]}`).sequenceIndex = parseValue(m[2]);
  } else if (op === 'applied') {
    state.applied = true;
  } else if ((m = /^physics=(none|reset|update|pose)$/.exec(op))) {
    state.physics = spine.Physics[m[1]];
  } else {
    fail(`unknown operation '${op}'`);
  }
}

function worldVertices(slot) {
  const attachment = slot.getAttachment();
  if (attachment instanceof spine.RegionAttachment) {
    const out = new Array(8).fill(0);
    attachment.computeWorldVertices(slot, out, 0, 2);
    return out;
  }
  if (attachment instanceof spine.VertexAttachment) {
    const out = new Array(attachment.worldVerticesLength).fill(0);
    attachment.computeWorldVertices(slot, 0, attachment.worldVerticesLength, out, 0, 2);
    return out;
  }
  return [];
}

// Update cache entries by class (PhysicsConstraint is not exported by the package's index, so by name).
function cacheKind(item) {
  const kinds = { Bone: 'bone', IkConstraint: 'ik', TransformConstraint: 'transform', PathConstraint: 'path',
                  PhysicsConstraint: 'physics' };
  return kinds[item.constructor.name] ?? 'other';
}

const [skeletonPath, atlasPath, ...ops] = process.argv.slice(2);
if (!skeletonPath || !atlasPath) fail('usage: node setup_pose_dump.mjs SKELETON ATLAS [OPERATION...]');
let data;
try {
  data = load(skeletonPath, atlasPath);
} catch (error) {
  fail(`${skeletonPath}: ${error.message}`);
}
for (const op of ops.filter((o) => o.startsWith('data.'))) runDataOp(data, op);
const skeleton = new spine.Skeleton(data);
const state = { physics: spine.Physics.none };
for (const op of ops.filter((o) => !o.startsWith('data.'))) run(skeleton, data, op, state);
skeleton.updateWorldTransform(state.physics);

const lines = [];
for (const bone of skeleton.bones)
  lines.push(['bone', encodeURIComponent(bone.data.name), bone.a, bone.b, bone.c, bone.d, bone.worldX, bone.worldY]
    .join(' '));
for (const slot of skeleton.drawOrder) {
  const attachment = slot.getAttachment();
  const vertices = worldVertices(slot);
  const name = attachment ? encodeURIComponent(attachment.name) : '-';
  lines.push(['slot', encodeURIComponent(slot.data.name), name, vertices.length, ...vertices].join(' '));
}
if (state.applied) {
  for (const bone of skeleton.bones) {
    bone.updateAppliedTransform();
    lines.push(['applied', encodeURIComponent(bone.data.name), bone.ax, bone.ay, bone.arotation, bone.ascaleX,
                bone.ascaleY, bone.ashearX, bone.ashearY].join(' '));
  }
}
for (const item of skeleton._updateCache)
  lines.push(['cache', cacheKind(item), encodeURIComponent(item.data.name)].join(' '));
process.stdout.write(lines.join('\n') + '\n');
