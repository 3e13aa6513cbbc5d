// Compares two renders of the same frame (ours and the reference), as the render tests do:
//
//   node compare_images.mjs A.png B.png [--threshold T] [--max-fraction F] [--background RRGGBBAA] [--diff OUT.png]
//        [--box K]
//
// Both images must be 8-bit-per-channel PNGs of the same size (any PNG colour type; read as straight RGBA). A pixel
// is covered if it differs from the background in either image (--background given), or has alpha > 0 in either
// image (no --background, or a transparent one). A covered pixel differs if its largest channel difference (R, G,
// B or A, in 0..255) is greater than T (default 24). Prints the covered and differing counts and the fraction
// differing / covered; exit 0 if the fraction is <= F (default 0.02), else 1 with a message (also 1 when no pixel
// is covered: two empty images compare nothing); 2 on bad arguments or unreadable files. --diff writes an image:
// differing pixels red, covered pixels that agree a dim grey version of A, the rest black.
//
// --box K compares a minified render A with a render B of the same frame K times as large (its camera's scale and
// offsets times K): B's K x K blocks are averaged, the area average that mipmaps approximate, and only the pixels
// whose whole block is opaque in B are covered (inside the character: the texture filtering is compared, not the
// edges, which a renderer without antialiasing cannot average; the same pixels whatever A holds). It takes no
// --background.
import * as fs from 'node:fs';
import { PNG } from 'pngjs';

const USAGE = 'usage: node compare_images.mjs A.png B.png [--threshold T] [--max-fraction F] [--background RRGGBBAA]' +
              ' [--diff OUT.png] [--box K]';

class UsageError extends Error {}

function parseArgs(argv) {
  const args = { threshold: 24, maxFraction: 0.02, background: null, diff: null, box: 0, files: [] };
  for (let i = 0; i < argv.length; i++) {
    const option = argv[i];
    if (!option.startsWith('--')) {
      args.files.push(option);
      continue;
    }
    if (!['--threshold', '--max-fraction', '--background', '--diff', '--box'].includes(option))
      throw new UsageError(`unknown argument '${option}'`);
    if (i + 1 >= argv.length) throw new UsageError(`${option} needs a value`);
    const value = argv[++i];
    if (option === '--threshold') {
      args.threshold = Number(value);
      if (!(value.trim() !== '' && args.threshold >= 0 && args.threshold <= 255))
        throw new UsageError(`--threshold must be a number from 0 to 255, got '${value}'`);
    } else if (option === '--max-fraction') {
      args.maxFraction = Number(value);
      if (!(value.trim() !== '' && args.maxFraction >= 0 && args.maxFraction <= 1))
        throw new UsageError(`--max-fraction must be a number from 0 to 1, got '${value}'`);
    } else if (option === '--background') {
      if (!/^[0-9a-fA-F]{8}$/.test(value)) throw new UsageError(`--background must be RRGGBBAA, got '${value}'`);
      args.background = [0, 2, 4, 6].map((k) => parseInt(value.slice(k, k + 2), 16));
    } else if (option === '--box') {
      args.box = Number(value);
      if (!(Number.isInteger(args.box) && args.box >= 1 && args.box <= 64))
        throw new UsageError(`--box must be a whole number from 1 to 64, got '${value}'`);
    } else args.diff = value;
  }
  if (args.files.length !== 2) throw new UsageError('give exactly two PNG files');
  if (args.box && args.background) throw new UsageError('--box compares by alpha: give no --background');
  return args;
}

function readPng(file) {
  let png;
  try {
    png = PNG.sync.read(fs.readFileSync(file));
  } catch (error) {
    throw new Error(`${file}: ${error.message}`);
  }
  if (png.depth !== 8) throw new Error(`${file}: ${png.depth}-bit channels; only 8-bit PNGs are compared`);
  return png;
}

// B's K x K blocks averaged into an image of A's size; blocks not wholly opaque come out transparent in both (A is
// changed in place).
function boxAverage(b, k, a, fileB) {
  if (b.width !== a.width * k || b.height !== a.height * k)
    throw new Error(`${fileB} is ${b.width}x${b.height}, not ${k} times the first image's ${a.width}x${a.height}`);
  const out = new PNG({ width: a.width, height: a.height });
  for (let y = 0; y < a.height; y++) {
    for (let x = 0; x < a.width; x++) {
      const sum = [0, 0, 0, 0];
      let opaque = true;
      for (let j = 0; j < k; j++) {
        for (let i = 0; i < k; i++) {
          const at = ((y * k + j) * b.width + x * k + i) * 4;
          for (let c = 0; c < 4; c++) sum[c] += b.data[at + c];
          if (b.data[at + 3] !== 255) opaque = false;
        }
      }
      const at = (y * a.width + x) * 4;
      if (opaque) for (let c = 0; c < 4; c++) out.data[at + c] = Math.round(sum[c] / (k * k));
      else a.data.fill(0, at, at + 4);  // out's pixel is already transparent black
    }
  }
  return out;
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  const [fileA, fileB] = args.files;
  const a = readPng(fileA);
  let b = readPng(fileB);
  if (args.box) b = boxAverage(b, args.box, a, fileB);
  if (a.width !== b.width || a.height !== b.height)
    throw new Error(`sizes differ: ${fileA} is ${a.width}x${a.height}, ${fileB} is ${b.width}x${b.height}`);
  const bg = args.background && args.background[3] > 0 ? args.background : null;
  const diff = args.diff ? new PNG({ width: a.width, height: a.height }) : null;
  const A = a.data, B = b.data;
  let covered = 0, differing = 0, largest = 0;
  for (let i = 0; i < A.length; i += 4) {
    let isCovered;
    if (bg) {
      isCovered = false;
      for (let c = 0; c < 4; c++) if (A[i + c] !== bg[c] || B[i + c] !== bg[c]) isCovered = true;
    } else {
      isCovered = A[i + 3] > 0 || B[i + 3] > 0;
    }
    let d = 0;
    for (let c = 0; c < 4; c++) d = Math.max(d, Math.abs(A[i + c] - B[i + c]));
    if (isCovered) {
      covered++;
      largest = Math.max(largest, d);
      if (d > args.threshold) differing++;
    }
    if (diff) {
      const out = diff.data;
      if (isCovered && d > args.threshold) out.set([255, 0, 0, 255], i);
      else if (isCovered) {
        const grey = Math.round((0.299 * A[i] + 0.587 * A[i + 1] + 0.114 * A[i + 2]) * (A[i + 3] / 255) * 0.35);
        out.set([grey, grey, grey, 255], i);
      } else out.set([0, 0, 0, 255], i);
    }
  }
  if (diff) {
    try {
      fs.writeFileSync(args.diff, PNG.sync.write(diff));
    } catch (error) {
      throw new Error(`${args.diff}: ${error.message}`);
    }
  }
  const fraction = covered === 0 ? 0 : differing / covered;
  process.stdout.write(`covered ${covered} differing ${differing} fraction ${fraction.toFixed(6)} ` +
                       `(threshold ${args.threshold}, max fraction ${args.maxFraction}, largest difference ${largest})\n`);
  if (covered === 0) {
    process.stderr.write(`compare_images: ${fileA} and ${fileB} cover no pixel: nothing was drawn to compare\n`);
    return 1;
  }
  if (fraction > args.maxFraction) {
    process.stderr.write(`compare_images: ${fileA} and ${fileB} differ: ${differing} of ${covered} covered pixels ` +
                         `(${(100 * fraction).toFixed(3)}%) differ by more than ${args.threshold}/255 in some channel; ` +
                         `at most ${(100 * args.maxFraction).toFixed(3)}% may\n`);
    return 1;
  }
  return 0;
}

try {
  process.exitCode = main();
} catch (error) {
  process.stderr.write(`compare_images: ${error.message}\n`);
  if (error instanceof UsageError) process.stderr.write(USAGE + '\n');
  process.exitCode = 2;
}
