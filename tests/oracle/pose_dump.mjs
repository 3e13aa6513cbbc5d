// The official side of the pose oracle: plays an animation or a schedule with the official Spine runtime
// (@esotericsoftware/spine-core, pinned in package.json) and prints one JSON line per dumped step, exactly as
// DESIGN.md's `spinegpu pose` contract says ("Pose dump"), so that the two can be compared with compare_poses.mjs.
//
//   node pose_dump.mjs --skeleton S --atlas A (--animation NAME | --schedule FILE) [--skin NAME]
//                      [--steps N] [--dt SECONDS] [--every K]
//
// The skeleton is read as JSON or binary (by extension, else by its first byte). The atlas's page images are not
// read: pages get stand-in textures of the size the atlas states. Errors go to stderr and exit with status 1.
//
// Stepping (the contract): the skeleton starts in the setup pose (the skin applied first: --skin, else the
// schedule's top-level "skin"; then setToSetupPose). No world transform is computed before step 1. For step =
// 1..N: every schedule command with step <= step - 1 that has not run yet runs, in file order; then
// state.update(dt), state.apply(skeleton), skeleton.update(dt), skeleton.updateWorldTransform(Physics.update).
// After each step that is a multiple of --every, one line is printed.
import * as fs from 'node:fs';
import * as spine from '@esotericsoftware/spine-core';

class StandInTexture extends spine.Texture {
  setFilters() {}
  setWraps() {}
  dispose() {}
}

class UsageError extends Error {}

const USAGE = 'usage: node pose_dump.mjs --skeleton S --atlas A (--animation NAME | --schedule FILE) [--skin NAME]\n' +
              '                          [--steps N] [--dt SECONDS] [--every K]';

function parseArgs(argv) {
  const args = { steps: 60, dt: 0.016666666666666666, every: 1 };
  const takesValue = new Set(['--skeleton', '--atlas', '--animation', '--schedule', '--skin', '--steps', '--dt', '--every']);
  for (let i = 0; i < argv.length; i++) {
    const option = argv[i];
    if (!takesValue.has(option)) throw new UsageError(`unknown argument '${option}'`);
    if (i + 1 >= argv.length) throw new UsageError(`${option} needs a value`);
    const value = argv[++i];
    const key = option.slice(2);
    if (key in args && !['steps', 'dt', 'every'].includes(key)) throw new UsageError(`${option} given twice`);
    args[key] = value;
  }
  for (const key of ['steps', 'every']) {
    const text = String(args[key]);
    const n = Number(text);
    if (!/^\d+$/.test(text) || !Number.isSafeInteger(n) || (key === 'every' && n < 1))
      throw new UsageError(`--${key} must be a ${key === 'every' ? 'positive' : 'non-negative'} integer, got '${text}'`);
    args[key] = n;
  }
  const dt = Number(args.dt);
  if (!(Number.isFinite(dt) && dt > 0)) throw new UsageError(`--dt must be a positive number, got '${args.dt}'`);
  args.dt = dt;
  if (!args.skeleton) throw new UsageError('--skeleton is required');
  if (!args.atlas) throw new UsageError('--atlas is required');
  if ((args.animation === undefined) === (args.schedule === undefined))
    throw new UsageError('give exactly one of --animation and --schedule');
  return args;
}

function loadSkeletonData(skeletonPath, atlasPath) {
  let atlas;
  try {
    atlas = new spine.TextureAtlas(fs.readFileSync(atlasPath, 'utf8'));
    for (const page of atlas.pages) page.setTexture(new StandInTexture({ width: page.width, height: page.height }));
  } catch (error) {
    throw new Error(`${atlasPath}: ${error.message}`);
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
    return json ? new spine.SkeletonJson(loader).readSkeletonData(bytes.toString('utf8'))
                : new spine.SkeletonBinary(loader).readSkeletonData(new Uint8Array(bytes));
  } catch (error) {
    throw new Error(`${skeletonPath}: ${error.message}`);
  }
}

// ---- Schedules -------------------------------------------------------------------------------------------------

const ACTIONS = ['set', 'add', 'empty', 'addEmpty', 'clear', 'skin'];
const ENTRY_FIELDS = ['alpha', 'mixDuration', 'timeScale', 'trackTime', 'mixBlend', 'reverse', 'holdPrevious'];
const ALLOWED = {
  set: ['loop', ...ENTRY_FIELDS],
  add: ['loop', 'delay', ...ENTRY_FIELDS],
  empty: ['mix'],
  addEmpty: ['mix', 'delay'],
  clear: [],
  skin: [],
};
const MIX_BLENDS = { setup: spine.MixBlend.setup, first: spine.MixBlend.first, replace: spine.MixBlend.replace,
                     add: spine.MixBlend.add };

// Checks a schedule against the skeleton data; throws an Error naming the place of the first problem.
function validateSchedule(schedule, data) {
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
    for (const key of ['loop', 'reverse', 'holdPrevious'])
      if (command[key] !== undefined && typeof command[key] !== 'boolean') throw new Error(`${where}: "${key}" must be a boolean`);
    for (const key of ['delay', 'mix', 'alpha', 'mixDuration', 'timeScale', 'trackTime'])
      if (command[key] !== undefined && !isNumber(command[key])) throw new Error(`${where}: "${key}" must be a number`);
    if (command.mixBlend !== undefined && !(command.mixBlend in MIX_BLENDS))
      throw new Error(`${where}: "mixBlend" must be one of ${Object.keys(MIX_BLENDS).join(', ')}`);
  });
}

function readSchedule(args, data) {
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
function makeSkin(data, value) {
  if (!Array.isArray(value)) {
    const skin = data.findSkin(value);
    if (!skin) throw new Error(`unknown skin "${value}"`);
    return skin;
  }
  const custom = new spine.Skin('custom');
  for (const name of value) custom.addSkin(data.findSkin(name));
  return custom;
}

function runCommand(command, state, skeleton, data) {
  if (command.skin !== undefined) {
    skeleton.setSkin(makeSkin(data, command.skin));
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
  if (command.mixBlend !== undefined) entry.mixBlend = MIX_BLENDS[command.mixBlend];
  if (command.reverse !== undefined) entry.reverse = command.reverse;
  if (command.holdPrevious !== undefined) entry.holdPrevious = command.holdPrevious;
}

// ---- The dump --------------------------------------------------------------------------------------------------

function slotVertices(slot) {
  const attachment = slot.getAttachment();
  if (attachment instanceof spine.RegionAttachment) {
    const out = new Array(8).fill(0);
    attachment.computeWorldVertices(slot, out, 0, 2);
    return out;
  }
  if (attachment instanceof spine.MeshAttachment) {
    const out = new Array(attachment.worldVerticesLength).fill(0);
    attachment.computeWorldVertices(slot, 0, attachment.worldVerticesLength, out, 0, 2);
    return out;
  }
  return null;
}

function poseLine(step, dt, skeleton, events) {
  const bones = skeleton.bones.map((bone) => ({
    name: bone.data.name, a: bone.a, b: bone.b, c: bone.c, d: bone.d, x: bone.worldX, y: bone.worldY,
  }));
  const slots = skeleton.drawOrder.map((slot) => {
    const attachment = slot.getAttachment();
    const c = slot.color, dark = slot.darkColor;
    return {
      name: slot.data.name,
      attachment: attachment ? attachment.name : null,
      color: [c.r, c.g, c.b, c.a],
      dark: dark ? [dark.r, dark.g, dark.b] : null,
      vertices: slotVertices(slot),
    };
  });
  return JSON.stringify({ frame: step, time: step * dt, bones, slots, events });
}

function run(args) {
  const data = loadSkeletonData(args.skeleton, args.atlas);
  const schedule = readSchedule(args, data);
  if (args.skin !== undefined && !data.findSkin(args.skin))
    throw new Error(`${args.skeleton}: --skin: unknown skin "${args.skin}"`);

  const skeleton = new spine.Skeleton(data);
  const skin = args.skin ?? schedule.skin;
  if (skin !== undefined) skeleton.setSkin(makeSkin(data, skin));
  skeleton.setToSetupPose();

  const stateData = new spine.AnimationStateData(data);
  if (schedule.mix) {
    if (schedule.mix.default !== undefined) stateData.defaultMix = schedule.mix.default;
    for (const pair of schedule.mix.pairs ?? []) stateData.setMix(pair.from, pair.to, pair.duration);
  }
  const state = new spine.AnimationState(stateData);

  let events = [];
  const record = (type) => (entry) => {
    events.push({ type, track: entry.trackIndex, animation: entry.animation.name });
  };
  state.addListener({
    start: record('start'),
    interrupt: record('interrupt'),
    end: record('end'),
    dispose: record('dispose'),
    complete: record('complete'),
    event: (entry, event) => {
      events.push({
        type: 'event', track: entry.trackIndex, animation: entry.animation.name,
        name: event.data.name, int: event.intValue, float: event.floatValue, string: event.stringValue,
        time: event.time, volume: event.volume, balance: event.balance,
      });
    },
  });

  const commands = schedule.commands;
  const done = new Array(commands.length).fill(false);
  for (let step = 1; step <= args.steps; step++) {
    for (let i = 0; i < commands.length; i++) {
      if (done[i] || commands[i].step > step - 1) continue;
      done[i] = true;
      try {
        runCommand(commands[i], state, skeleton, data);
      } catch (error) {
        throw new Error(`${args.schedule ?? '--animation'}: commands[${i}] at step ${step}: ${error.message}`);
      }
    }
    state.update(args.dt);
    state.apply(skeleton);
    skeleton.update(args.dt);
    skeleton.updateWorldTransform(spine.Physics.update);
    if (step % args.every === 0) {
      process.stdout.write(poseLine(step, args.dt, skeleton, events) + '\n');
      events = [];
    }
  }
}

// A reader that stops early (`| head`) is not an error of ours.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

if (process.argv.includes('-h') || process.argv.includes('--help')) {
  process.stdout.write(USAGE + '\n');
  process.exit(0);
}
try {
  run(parseArgs(process.argv.slice(2)));
} catch (error) {
  process.stderr.write(`pose_dump: ${error.message}\n`);
  if (error instanceof UsageError) process.stderr.write(USAGE + '\n');
  process.exitCode = 1;  // (not process.exit: let what was printed before the error reach stdout)
}
