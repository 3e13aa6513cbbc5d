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
// After each step that is a multiple of --every, one line is printed. The loading, schedule and stepping code is
// in pose_stepping.mjs (shared with ../render_oracle/render_reference.mjs, which renders the same pose).
import * as spine from '@esotericsoftware/spine-core';
import { loadSkeletonData, readSchedule, PoseStepper } from './pose_stepping.mjs';

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
  const data = loadSkeletonData(spine, args.skeleton, args.atlas);
  const schedule = readSchedule(args, data);
  const stepper = new PoseStepper(spine, data, schedule,
                                  { skin: args.skin, label: args.schedule, skeletonPath: args.skeleton });

  let events = [];
  const record = (type) => (entry) => {
    events.push({ type, track: entry.trackIndex, animation: entry.animation.name });
  };
  stepper.state.addListener({
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

  for (let step = 1; step <= args.steps; step++) {
    stepper.step(args.dt);
    if (step % args.every === 0) {
      process.stdout.write(poseLine(step, args.dt, stepper.skeleton, events) + '\n');
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
