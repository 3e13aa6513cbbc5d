// The stepping of DESIGN.md's pose contract ("Pose dump"), played by the official Spine runtime, shared by
// pose_dump.mjs (the pose oracle) and ../render_oracle/render_reference.mjs (the render oracle), so that both show
// exactly the same pose after the same steps.
//
// This module does not import the runtime itself: every function takes the `spine` namespace of the caller's
// @esotericsoftware/spine-core 4.2.119 (tests/oracle and tests/render_oracle each install their own copy, and the
// classes of one copy are not those of the other: `instanceof` must see the caller's).
//
// Stepping (the contract): the skeleton starts in the setup pose (the skin applied first: --skin, else the
// schedule's top-level "skin"; then setToSetupPose). No world transform is computed before step 1. For step =
// 1..N: every schedule command with step <= step - 1 that has not run yet runs, in file order; then
// state.update(dt), state.apply(skeleton), skeleton.update(dt), skeleton.updateWorldTransform(Physics.update).
import * as fs from 'node:fs';

// A texture that holds nothing: pages that are never drawn (the pose oracle) get one of the size the atlas states.
function makeStandInTexture(spine, page) {
  class StandInTexture extends spine.Texture {
    setFilters() {}
    setWraps() {}
    dispose() {}
  }
  return new StandInTexture({ width: page.width, height: page.height });
}

// Reads the atlas and the skeleton (JSON or binary: by extension, else by the first byte). `textureForPage(page)`
// gives each atlas page its texture (default: a stand-in; page images are then never read). Errors name the file.
export function loadSkeletonData(spine, skeletonPath, atlasPath, textureForPage = null) {
  let atlas;
  try {
    atlas = new spine.TextureAtlas(fs.readFileSync(atlasPath, 'utf8'));
  } catch (error) {
    throw new Error(`${atlasPath}: ${error.message}`);
  }
  for (const page of atlas.pages) {
    try {
      page.setTexture(textureForPage ? textureForPage(page) : makeStandInTexture(spine, page));
    } catch (error) {
      throw new Error(`${atlasPath}: page "${page.name}": ${error.message}`);
    }
  }
  try {
    const loader = new spine.AtlasAttachmentLoader(atlas);
    const bytes = fs.readFileSync(skeletonPath);
    let json;
    if (/\.json$/i.test(skeletonPath)) json = true;
    else if (/\.skel(\.bytes)?$/i.test(skeletonPath)) json = false;
    else {
      const first = bytes.find((b) => b !== 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d &&
                                      b !== 0xef && b !== 0xbb && b !== 0xbf);
      json = first === 0x7b; /* '{' */
    }
    const data = json ? new spine.SkeletonJson(loader).readSkeletonData(bytes.toString('utf8'))
                      : new spine.SkeletonBinary(loader).readSkeletonData(new Uint8Array(bytes));
    data.atlas = atlas;  // (for callers that need the pages; the runtime does not look at this field)
    return data;
  } catch (error) {
    throw new Error(`${skeletonPath}: ${error.message}`);
  }
}

// ---- Schedules -------------------------------------------------------------------------------------------------

const ACTIONS = ['set', 'add', 'empty', 'addEmpty', 'clear', 'skin'];
const ENTRY_FIELDS = ['alpha', 'mixDuration', 'timeScale', 'trackTime', 'mixBlend', 'reverse', 'holdPrevious',
  'shortestRotation', 'eventThreshold', 'mixAttachmentThreshold', 'alphaAttachmentThreshold', 'mixDrawOrderThreshold'];
const ALLOWED = {
  set: ['loop', ...ENTRY_FIELDS],
  add: ['loop', 'delay', ...ENTRY_FIELDS],
  empty: ['mix'],
  addEmpty: ['mix', 'delay'],
  clear: [],
  skin: [],
};
const MIX_BLEND_NAMES = ['setup', 'first', 'replace', 'add'];

// Checks a schedule against the skeleton data; throws an Error naming the place of the first problem.
export function validateSchedule(schedule, data) {
  const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
  const isNumber = (v) => typeof v === 'number' && Number.isFinite(v);
  if (!isObject(schedule)) throw new Error('the schedule must be a JSON object');
  for (const key of Object.keys(schedule))
    if (!['skin', 'mix', 'commands', 'comment'].includes(key)) throw new Error(`unknown top-level key "${key}"`);
  const checkSkin = (value, where) => {
    const names = Array.isArray(value) ? value : [value];
    if (names.length === 0) throw new Error(`${where}: an empty skin list`);
    for (const name of names) {
      if (typeof name !== 'string') throw new Error(`${where}: a skin is a name or an array of names`);
      if (!data.findSkin(name)) throw new Error(`${where}: unknown skin "${name}"`);
    }
  };
  const checkAnimation = (name, where) => {
    if (typeof name !== 'string') throw new Error(`${where}: an animation name must be a string`);
    if (!data.findAnimation(name)) throw new Error(`${where}: unknown animation "${name}"`);
  };
  if (schedule.skin !== undefined) checkSkin(schedule.skin, '"skin"');
  if (schedule.mix !== undefined) {
    const mix = schedule.mix;
    if (!isObject(mix)) throw new Error('"mix" must be an object');
    for (const key of Object.keys(mix))
      if (!['default', 'pairs'].includes(key)) throw new Error(`"mix": unknown key "${key}"`);
    if (mix.default !== undefined && !(isNumber(mix.default) && mix.default >= 0))
      throw new Error('"mix.default" must be a non-negative number');
    if (mix.pairs !== undefined) {
      if (!Array.isArray(mix.pairs)) throw new Error('"mix.pairs" must be an array');
      mix.pairs.forEach((pair, i) => {
        const where = `mix.pairs[${i}]`;
        if (!isObject(pair)) throw new Error(`${where}: must be an object`);
        for (const key of Object.keys(pair))
          if (!['from', 'to', 'duration'].includes(key)) throw new Error(`${where}: unknown key "${key}"`);
        checkAnimation(pair.from, `${where}.from`);
        checkAnimation(pair.to, `${where}.to`);
        if (!(isNumber(pair.duration) && pair.duration >= 0)) throw new Error(`${where}.duration must be a number >= 0`);
      });
    }
  }
  if (!Array.isArray(schedule.commands)) throw new Error('"commands" must be an array');
  schedule.commands.forEach((command, i) => {
    const where = `commands[${i}]`;
    if (!isObject(command)) throw new Error(`${where}: must be an object`);
    if (!(Number.isSafeInteger(command.step) && command.step >= 0))
      throw new Error(`${where}: "step" must be a non-negative integer`);
    const actions = ACTIONS.filter((action) => command[action] !== undefined);
    if (actions.length !== 1) throw new Error(`${where}: needs exactly one of ${ACTIONS.join(', ')}`);
    const action = actions[0];
    const allowed = new Set(['step', 'comment', action, ...ALLOWED[action], ...(action === 'skin' ? [] : ['track'])]);
    for (const key of Object.keys(command))
      if (!allowed.has(key)) throw new Error(`${where}: "${key}" is not allowed on a "${action}" command`);
    if (action === 'skin') {
      checkSkin(command.skin, where);
      return;
    }
    if (!(Number.isSafeInteger(command.track) && command.track >= 0))
      throw new Error(`${where}: "track" must be a non-negative integer`);
    if (action === 'set' || action === 'add') checkAnimation(command[action], `${where}.${action}`);
    else if (command[action] !== true) throw new Error(`${where}: "${action}" must be true`);
    for (const key of ['loop', 'reverse', 'holdPrevious', 'shortestRotation'])
      if (command[key] !== undefined && typeof command[key] !== 'boolean') throw new Error(`${where}: "${key}" must be a boolean`);
    for (const key of ['delay', 'mix', 'alpha', 'mixDuration', 'timeScale', 'trackTime', 'eventThreshold',
                       'mixAttachmentThreshold', 'alphaAttachmentThreshold', 'mixDrawOrderThreshold'])
      if (command[key] !== undefined && !isNumber(command[key])) throw new Error(`${where}: "${key}" must be a number`);
    if (command.mixBlend !== undefined && !MIX_BLEND_NAMES.includes(command.mixBlend))
      throw new Error(`${where}: "mixBlend" must be one of ${MIX_BLEND_NAMES.join(', ')}`);
  });
}

// The schedule of the command line: `--animation NAME` (looping on track 0 from step 0) or the file `--schedule`.
// args: { skeleton, animation?, schedule? }.
export function readSchedule(args, data) {
  if (args.animation !== undefined) {
    if (!data.findAnimation(args.animation))
      throw new Error(`${args.skeleton}: --animation: unknown animation "${args.animation}"`);
    return { commands: [{ step: 0, track: 0, set: args.animation, loop: true }] };
  }
  let schedule;
  try {
    schedule = JSON.parse(fs.readFileSync(args.schedule, 'utf8'));
    validateSchedule(schedule, data);
  } catch (error) {
    throw new Error(`${args.schedule}: ${error.message}`);
  }
  return schedule;
}

// A skin value of a schedule or --skin: a name, or an array of names combined into a new skin named "custom".
export function makeSkin(spine, data, value) {
  if (!Array.isArray(value)) {
    const skin = data.findSkin(value);
    if (!skin) throw new Error(`unknown skin "${value}"`);
    return skin;
  }
  const custom = new spine.Skin('custom');
  for (const name of value) custom.addSkin(data.findSkin(name));
  return custom;
}

export function runCommand(spine, command, state, skeleton, data) {
  if (command.skin !== undefined) {
    skeleton.setSkin(makeSkin(spine, data, command.skin));
    return;
  }
  const track = command.track;
  let entry = null;
  if (command.set !== undefined) entry = state.setAnimation(track, command.set, command.loop ?? false);
  else if (command.add !== undefined) entry = state.addAnimation(track, command.add, command.loop ?? false, command.delay ?? 0);
  else if (command.empty !== undefined) state.setEmptyAnimation(track, command.mix ?? 0);
  else if (command.addEmpty !== undefined) state.addEmptyAnimation(track, command.mix ?? 0, command.delay ?? 0);
  else if (command.clear !== undefined) state.clearTrack(track);
  if (!entry) return;
  if (command.alpha !== undefined) entry.alpha = command.alpha;
  if (command.mixDuration !== undefined) entry.mixDuration = command.mixDuration;
  if (command.timeScale !== undefined) entry.timeScale = command.timeScale;
  if (command.trackTime !== undefined) entry.trackTime = command.trackTime;
  if (command.mixBlend !== undefined) entry.mixBlend = spine.MixBlend[command.mixBlend];
  if (command.reverse !== undefined) entry.reverse = command.reverse;
  if (command.holdPrevious !== undefined) entry.holdPrevious = command.holdPrevious;
  for (const key of ['shortestRotation', 'eventThreshold', 'mixAttachmentThreshold', 'alphaAttachmentThreshold',
                     'mixDrawOrderThreshold'])
    if (command[key] !== undefined) entry[key] = command[key];
}

// ---- Stepping --------------------------------------------------------------------------------------------------

// A skeleton and its animation state in the setup pose, ready for step 1. `options.skin` (--skin) wins over the
// schedule's top-level "skin"; `options.label` names the schedule in errors (default: the file, or --animation).
// Add listeners to `stepper.state` before the first step to see every callback.
export class PoseStepper {
  constructor(spine, data, schedule, options = {}) {
    this.spine = spine;
    this.data = data;
    this.label = options.label ?? '--animation';
    if (options.skin !== undefined && !data.findSkin(options.skin))
      throw new Error(`${options.skeletonPath ?? 'skeleton'}: --skin: unknown skin "${options.skin}"`);

    this.skeleton = new spine.Skeleton(data);
    const skin = options.skin ?? schedule.skin;
    if (skin !== undefined) this.skeleton.setSkin(makeSkin(spine, data, skin));
    this.skeleton.setToSetupPose();

    const stateData = new spine.AnimationStateData(data);
    if (schedule.mix) {
      if (schedule.mix.default !== undefined) stateData.defaultMix = schedule.mix.default;
      for (const pair of schedule.mix.pairs ?? []) stateData.setMix(pair.from, pair.to, pair.duration);
    }
    this.state = new spine.AnimationState(stateData);
    this.commands = schedule.commands;
    this.done = new Array(this.commands.length).fill(false);
    this.stepsDone = 0;
  }

  // Runs step number this.stepsDone + 1 of length dt.
  step(dt) {
    const step = ++this.stepsDone;
    const { spine, state, skeleton, data, commands, done } = this;
    for (let i = 0; i < commands.length; i++) {
      if (done[i] || commands[i].step > step - 1) continue;
      done[i] = true;
      try {
        runCommand(spine, commands[i], state, skeleton, data);
      } catch (error) {
        throw new Error(`${this.label}: commands[${i}] at step ${step}: ${error.message}`);
      }
    }
    state.update(dt);
    state.apply(skeleton);
    skeleton.update(dt);
    skeleton.updateWorldTransform(spine.Physics.update);
    return step;
  }
}
