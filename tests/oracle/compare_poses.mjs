// Compares two pose dumps (DESIGN.md "Pose dump": one JSON line per dumped step, as pose_dump.mjs and
// `spinegpu pose` print them) with DESIGN.md's tolerances. EXPECTED is the official runtime's dump.
//
//   node compare_poses.mjs EXPECTED.jsonl ACTUAL.jsonl [--label TEXT] [--physics-steps N]
//
// Line by line: the frame numbers must match (a missing or extra line fails); bones in the same order with world
// a b c d within 1e-3 and x y within 0.05; slots in the same draw order (name sequence exact), each with the same
// attachment name, colour and dark colour within 2e-3, the same number of vertices, each within 0.05; events
// identical (type, track, animation, event name, int and string exact; float, time, volume, balance within 1e-4).
// --physics-steps N: for physics skeletons, bone transforms and vertices are held to the tolerances only up to
// frame N; later frames are still checked for attachments, draw order, colours and events.
//
// Exit 0 with a one-line summary (frames compared, largest deviations per category); exit 1 with the label, the
// frame and the first differences (up to 10) when they differ, or when neither dump holds a frame; exit 2 on bad
// arguments or unreadable files.
import * as fs from 'node:fs';
import * as path from 'node:path';

const TOLERANCE = { matrix: 1e-3, position: 0.05, vertex: 0.05, colour: 2e-3, event: 1e-4, time: 1e-6 };
const MAX_REPORTED = 10;
const USAGE = 'usage: node compare_poses.mjs EXPECTED.jsonl ACTUAL.jsonl [--label TEXT] [--physics-steps N]';

function parseArgs(argv) {
  const args = { physicsSteps: Infinity };
  const files = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--label' && i + 1 < argv.length) args.label = argv[++i];
    else if (argv[i] === '--physics-steps' && i + 1 < argv.length) {
      const text = argv[++i];
      if (!/^\d+$/.test(text)) fatal(`--physics-steps must be a non-negative integer, got '${text}'`);
      args.physicsSteps = Number(text);
    } else if (argv[i].startsWith('--')) fatal(`unknown argument '${argv[i]}'`);
    else files.push(argv[i]);
  }
  if (files.length !== 2) fatal('give EXPECTED and ACTUAL');
  [args.expected, args.actual] = files;
  args.label ??= path.basename(args.actual);
  return args;
}

function fatal(message) {
  process.stderr.write(`compare_poses: ${message}\n${USAGE}\n`);
  process.exit(2);
}

function readLines(file) {
  let text;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    fatal(`${file}: ${error.message}`);
  }
  const lines = text.split('\n');
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

const fmt = (value) => (typeof value === 'number' ? String(value) : JSON.stringify(value));
const isNumber = (v) => typeof v === 'number' && Number.isFinite(v);
const describeEvent = (e) => {
  if (e === null || typeof e !== 'object') return fmt(e);
  const parts = [`${e.type} track ${e.track} "${e.animation}"`];
  if (e.type === 'event') parts.push(`event "${e.name}" int ${e.int} float ${e.float} string ${fmt(e.string)} ` +
                                     `time ${e.time} volume ${e.volume} balance ${e.balance}`);
  return parts.join(' ');
};

class Comparison {
  constructor(physicsSteps) {
    this.physicsSteps = physicsSteps;
    this.differences = [];     // the first MAX_REPORTED, as text
    this.differenceCount = 0;
    this.failedFrames = [];
    this.frames = 0;
    this.looseFrames = 0;
    this.max = { matrix: 0, position: 0, vertex: 0, colour: 0, event: 0 };
    this.frameFailed = false;
    this.where = '';
  }

  differ(text) {
    this.differenceCount++;
    this.frameFailed = true;
    if (this.differences.length < MAX_REPORTED) this.differences.push(`${this.where}: ${text}`);
  }

  // Compares numbers within the category's tolerance; returns false (and reports) when they differ.
  near(category, expected, actual, what) {
    if (!isNumber(actual) || !isNumber(expected)) {
      if (expected !== actual) this.differ(`${what}: expected ${fmt(expected)}, actual ${fmt(actual)}`);
      return expected === actual;
    }
    const deviation = Math.abs(expected - actual);
    if (category in this.max && deviation > this.max[category]) this.max[category] = deviation;
    if (deviation <= TOLERANCE[category]) return true;
    this.differ(`${what}: expected ${expected}, actual ${actual} (|diff| ${deviation.toPrecision(3)} > ${TOLERANCE[category]})`);
    return false;
  }

  // Numeric arrays of the same length, reported once per array (the first value out of tolerance).
  nearArray(category, expected, actual, what) {
    if (expected === null || actual === null || !Array.isArray(expected) || !Array.isArray(actual)) {
      if (JSON.stringify(expected) !== JSON.stringify(actual))
        this.differ(`${what}: expected ${expected === null ? 'null' : `${expected?.length} values`}, ` +
                    `actual ${actual === null ? 'null' : Array.isArray(actual) ? `${actual.length} values` : fmt(actual)}`);
      return;
    }
    if (expected.length !== actual.length) {
      this.differ(`${what}: expected ${expected.length} values, actual ${actual.length}`);
      return;
    }
    let first = -1, worst = 0, bad = 0;
    for (let i = 0; i < expected.length; i++) {
      const e = expected[i], a = actual[i];
      const deviation = isNumber(e) && isNumber(a) ? Math.abs(e - a) : (e === a ? 0 : Infinity);
      if (deviation !== Infinity && deviation > this.max[category]) this.max[category] = deviation;
      if (!(deviation <= TOLERANCE[category])) {
        bad++;
        if (first < 0) first = i;
        if (deviation > worst) worst = deviation;
      }
    }
    if (first >= 0)
      this.differ(`${what}[${first}]: expected ${fmt(expected[first])}, actual ${fmt(actual[first])} ` +
                  `(${bad} of ${expected.length} values out of ${TOLERANCE[category]}, largest |diff| ${worst.toPrecision(3)})`);
  }

  compareBones(expected, actual, strict) {
    if (expected.length !== actual.length)
      this.differ(`bone count: expected ${expected.length}, actual ${actual.length}`);
    for (let i = 0; i < Math.min(expected.length, actual.length); i++) {
      const e = expected[i], a = actual[i];
      if (e.name !== a?.name) {
        this.differ(`bone #${i}: expected "${e.name}", actual ${fmt(a?.name)}`);
        continue;
      }
      if (!strict) continue;
      for (const field of ['a', 'b', 'c', 'd']) this.near('matrix', e[field], a[field], `bone "${e.name}" ${field}`);
      for (const field of ['x', 'y']) this.near('position', e[field], a[field], `bone "${e.name}" ${field}`);
    }
  }

  compareSlots(expected, actual, strict) {
    const names = (slots) => slots.map((slot) => slot?.name);
    const expectedNames = names(expected), actualNames = names(actual);
    if (expectedNames.join('\u0000') !== actualNames.join('\u0000')) {
      let i = 0;
      while (i < expectedNames.length && expectedNames[i] === actualNames[i]) i++;
      const around = (list) => list.slice(Math.max(0, i - 1), i + 3).map(fmt).join(', ');
      this.differ(`draw order differs at #${i} (slot ${fmt(expectedNames[i])}): expected ..., ${around(expectedNames)}, ...; ` +
                  `actual ..., ${around(actualNames)}, ...` +
                  (expected.length !== actual.length ? ` (${expected.length} slots, actual ${actual.length})` : ''));
    }
    const actualByName = new Map();
    for (const slot of actual) if (slot && !actualByName.has(slot.name)) actualByName.set(slot.name, slot);
    for (const e of expected) {
      const a = actualByName.get(e.name);
      const what = `slot "${e.name}"`;
      if (!a) {
        this.differ(`${what} is missing`);
        continue;
      }
      if (e.attachment !== a.attachment) {
        this.differ(`${what} attachment: expected ${fmt(e.attachment)}, actual ${fmt(a.attachment)}`);
      } else if (strict) {
        this.nearArray('vertex', e.vertices, a.vertices, `${what} vertices`);
      } else {  // past --physics-steps: only the shape of the vertices
        const count = (v) => (Array.isArray(v) ? `${v.length} values` : fmt(v));
        if (count(e.vertices) !== count(a.vertices))
          this.differ(`${what} vertices: expected ${count(e.vertices)}, actual ${count(a.vertices)}`);
      }
      this.nearArray('colour', e.color, a.color, `${what} color`);
      this.nearArray('colour', e.dark, a.dark, `${what} dark`);
    }
  }

  compareEvents(expected, actual) {
    const exact = ['type', 'track', 'animation'];
    const exactEvent = ['name', 'int', 'string'];
    const nearEvent = ['float', 'time', 'volume', 'balance'];
    for (let i = 0; i < Math.max(expected.length, actual.length); i++) {
      const e = expected[i], a = actual[i];
      if (e === undefined) {
        this.differ(`extra event #${i}: actual ${describeEvent(a)}`);
        continue;
      }
      if (a === undefined) {
        this.differ(`missing event #${i}: expected ${describeEvent(e)}`);
        continue;
      }
      const fields = e.type === 'event' ? [...exact, ...exactEvent] : exact;
      const wrong = fields.filter((field) => e[field] !== a[field]);
      if (wrong.length) {
        this.differ(`event #${i} ${wrong.join(', ')}: expected ${describeEvent(e)}, actual ${describeEvent(a)}`);
        continue;
      }
      if (e.type === 'event')
        for (const field of nearEvent) this.near('event', e[field], a[field], `event #${i} ("${e.name}") ${field}`);
    }
  }

  compareLine(expectedText, actualText, line) {
    this.where = `line ${line}`;
    let e, a;
    try {
      e = JSON.parse(expectedText);
    } catch (error) {
      this.differ(`EXPECTED is not JSON: ${error.message}`);
      return;
    }
    this.where = `frame ${e.frame}`;
    try {
      a = JSON.parse(actualText);
    } catch (error) {
      this.differ(`ACTUAL line ${line} is not JSON: ${error.message}`);
      return;
    }
    for (const key of ['bones', 'slots', 'events']) {
      if (!Array.isArray(a?.[key])) {
        this.differ(`ACTUAL line ${line} has no "${key}" array`);
        return;
      }
    }
    if (e.frame !== a.frame) {  // misaligned (a line missing or extra): the contents would only add noise
      this.differ(`line ${line} is frame ${fmt(a.frame)} in ACTUAL, frame ${e.frame} in EXPECTED`);
      return;
    }
    this.near('time', e.time, a.time, 'time');
    const strict = e.frame <= this.physicsSteps;
    if (!strict) this.looseFrames++;
    this.compareBones(e.bones, a.bones, strict);
    this.compareSlots(e.slots, a.slots, strict);
    this.compareEvents(e.events, a.events);
  }

  run(expectedLines, actualLines) {
    const n = Math.max(expectedLines.length, actualLines.length);
    for (let i = 0; i < n; i++) {
      this.frameFailed = false;
      if (i >= actualLines.length) {
        let frame = '?';
        try { frame = JSON.parse(expectedLines[i]).frame; } catch {}
        this.where = `frame ${frame}`;
        this.differ(`missing line ${i + 1}: ACTUAL ends after ${actualLines.length} lines`);
      } else if (i >= expectedLines.length) {
        let frame = '?';
        try { frame = JSON.parse(actualLines[i]).frame; } catch {}
        this.where = `frame ${frame}`;
        this.differ(`extra line ${i + 1}: EXPECTED ends after ${expectedLines.length} lines`);
      } else {
        this.frames++;
        this.compareLine(expectedLines[i], actualLines[i], i + 1);
      }
      if (this.frameFailed) this.failedFrames.push(this.where);
    }
  }
}

process.stdout.on('error', (error) => {  // a reader that stops early (`| head`) is not an error of ours
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

const args = parseArgs(process.argv.slice(2));
const expectedLines = readLines(args.expected);
const actualLines = readLines(args.actual);
const comparison = new Comparison(args.physicsSteps);
comparison.run(expectedLines, actualLines);

const m = comparison.max;
const g = (v) => (v === 0 ? '0' : v.toPrecision(2));
if (comparison.differenceCount === 0 && comparison.frames === 0) {
  // Two empty dumps (a dump that failed before its first line on both sides) prove nothing.
  process.stdout.write(`FAIL: ${args.label}: no frame to compare\n`);
  process.exitCode = 1;
} else if (comparison.differenceCount > 0) {
  const c = comparison;
  process.stdout.write(`FAIL: ${args.label}: ${c.failedFrames.length} of ${Math.max(expectedLines.length, actualLines.length)} ` +
                       `lines differ, first at ${c.failedFrames[0]}; ${c.differenceCount} differences, ` +
                       `the first ${c.differences.length}:\n`);
  for (const text of c.differences) process.stdout.write(`  ${text}\n`);
  process.exitCode = 1;
} else {
  const loose = comparison.looseFrames
    ? ` (${comparison.looseFrames} frames after ${args.physicsSteps}: transforms and vertices not held)` : '';
  process.stdout.write(`ok: ${args.label}: ${comparison.frames} frames match${loose}; largest |diff|: ` +
                       `bone a-d ${g(m.matrix)}, bone x-y ${g(m.position)}, vertices ${g(m.vertex)}, ` +
                       `colours ${g(m.colour)}, event values ${g(m.event)}\n`);
}
