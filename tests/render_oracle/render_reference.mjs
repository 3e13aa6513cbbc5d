// The official side of the render oracle: poses a skeleton with the official Spine runtime
// (@esotericsoftware/spine-core 4.2.119, with exactly the stepping of ../oracle/pose_dump.mjs) and draws it with the
// official CanvasKit renderer (@esotericsoftware/spine-canvaskit on canvaskit-wasm, pinned in package.json), into
// an 8-bit RGBA PNG with straight alpha, as DESIGN.md's `spinegpu render` contract says ("Render").
//
//   node render_reference.mjs --skeleton S --atlas A (--animation NAME | --schedule FILE) [--skin NAME]
//        [--steps N] [--dt D] --width W --height H --camera SCALE,OX,OY [--background RRGGBBAA]
//        [--stock] --out FILE.png
//
// Camera: skeleton world (x, y) is drawn at pixel (OX + SCALE*x, OY - SCALE*y) (y up in the world, down in the
// image; pixel (i, j) covers [i, i+1) x [j, j+1)). The background (default 00000000, transparent) fills the image
// first. Atlas pages are read from disk (beside the atlas, as the atlas names them).
//
// The drawing is spine-canvaskit's SkeletonRenderer.render, reproduced slot for slot (same attachment handling,
// same SkeletonClipping calls, same per-vertex colour and Modulate for ordinary slots), with its three gaps against
// the official runtimes' definition (spine-webgl's SkeletonRenderer, PolygonBatcher and two-colour shader) closed
// here (README.md says why and how):
//   (a) two-color tint: slots with a dark colour are drawn with a runtime-effect shader that is spine-webgl's
//       two-colour fragment shader (premultiplied);
//   (b) multiply: drawn with a blender that is spine-webgl's (DST_COLOR, ONE_MINUS_SRC_ALPHA) / (ONE,
//       ONE_MINUS_SRC_ALPHA), not SrcOver;
//   (c) pages marked `pma: true` are handed to Skia as premultiplied pixels, not premultiplied a second time.
// Also: pages are sampled with the atlas's mag filter (spine-webgl honours both filters; spine-canvaskit asks for
// linear mipmaps, which drawVertices does not sample). `--stock` draws with spine-canvaskit's own SkeletonRenderer and texture loader, unchanged (to see the
// gaps, and to check that this renderer equals it where there is no gap).
//
// Errors go to stderr with the file and place, exit status 1 (2 for bad arguments).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import CanvasKitInit from 'canvaskit-wasm';
import { PNG } from 'pngjs';
import * as spine from '@esotericsoftware/spine-canvaskit';
import { loadSkeletonData, readSchedule, PoseStepper } from '../oracle/pose_stepping.mjs';

// spine-canvaskit sets Skeleton.yDown = true when it is imported, which flips every world transform (and physics
// gravity). The pose oracle, and DESIGN.md's world, are y up: undo it. The camera's y flip is done by the canvas.
spine.Skeleton.yDown = false;

export class UsageError extends Error {}

const USAGE =
  'usage: node render_reference.mjs --skeleton S --atlas A (--animation NAME | --schedule FILE) [--skin NAME]\n' +
  '          [--steps N] [--dt D] --width W --height H --camera SCALE,OX,OY [--background RRGGBBAA]\n' +
  '          [--stock] --out FILE.png';

// ---- Arguments -------------------------------------------------------------------------------------------------

export function parseColor(text, what) {
  if (!/^[0-9a-fA-F]{8}$/.test(text)) throw new UsageError(`${what} must be RRGGBBAA (8 hex digits), got '${text}'`);
  return [0, 2, 4, 6].map((i) => parseInt(text.slice(i, i + 2), 16));
}

export function parseArgs(argv) {
  const args = { steps: 60, dt: 0.016666666666666666, background: '00000000', stock: false };
  const takesValue = new Set(['--skeleton', '--atlas', '--animation', '--schedule', '--skin', '--steps', '--dt',
                              '--width', '--height', '--camera', '--background', '--out']);
  const seen = new Set();
  for (let i = 0; i < argv.length; i++) {
    const option = argv[i];
    if (option === '--stock') {
      args.stock = true;
      continue;
    }
    if (!takesValue.has(option)) throw new UsageError(`unknown argument '${option}'`);
    if (i + 1 >= argv.length) throw new UsageError(`${option} needs a value`);
    if (seen.has(option)) throw new UsageError(`${option} given twice`);
    seen.add(option);
    args[option.slice(2)] = argv[++i];
  }
  for (const key of ['skeleton', 'atlas', 'width', 'height', 'camera', 'out'])
    if (args[key] === undefined) throw new UsageError(`--${key} is required`);
  if ((args.animation === undefined) === (args.schedule === undefined))
    throw new UsageError('give exactly one of --animation and --schedule');
  const positiveInt = (key, max) => {
    const text = String(args[key]);
    const n = Number(text);
    if (!/^\d+$/.test(text) || !Number.isSafeInteger(n) || n < 1 || n > max)
      throw new UsageError(`--${key} must be an integer from 1 to ${max}, got '${text}'`);
    return n;
  };
  args.steps = positiveInt('steps', 1e9);
  args.width = positiveInt('width', 16384);
  args.height = positiveInt('height', 16384);
  const dt = Number(args.dt);
  if (!(Number.isFinite(dt) && dt > 0)) throw new UsageError(`--dt must be a positive number, got '${args.dt}'`);
  args.dt = dt;
  const camera = String(args.camera).split(',').map((s) => (s.trim() === '' ? NaN : Number(s)));
  if (camera.length !== 3 || !camera.every(Number.isFinite) || !(camera[0] > 0))
    throw new UsageError(`--camera must be SCALE,OX,OY with SCALE > 0, got '${args.camera}'`);
  [args.scale, args.ox, args.oy] = camera;
  args.backgroundRGBA = parseColor(args.background, '--background');
  return args;
}

// ---- Atlas pages -----------------------------------------------------------------------------------------------

// Skia has one filter for minification and magnification: the filtering is the page's mag filter's, the mipmapping
// its min filter's (every example atlas says `filter: Linear, Linear`: bilinear, no mipmaps). Skia's drawVertices
// samples no mipmaps, whatever the mode asks (README.md).
function sampling(ck, page) {
  const F = spine.TextureFilter;
  const filter = page.magFilter === F.Nearest ? ck.FilterMode.Nearest : ck.FilterMode.Linear;
  let mipmap = ck.MipmapMode.None;
  if (page.minFilter === F.MipMapLinearLinear || page.minFilter === F.MipMapNearestLinear) mipmap = ck.MipmapMode.Linear;
  else if (page.minFilter === F.MipMapLinearNearest || page.minFilter === F.MipMapNearestNearest) mipmap = ck.MipmapMode.Nearest;
  return { filter, mipmap };
}

// A page: the Skia image, the shader that samples it, and one paint per blend mode for ordinary slots.
class PageTexture extends spine.Texture {
  setFilters() {}
  setWraps() {}
  dispose() {}
}

function loadPage(ck, atlasPath, page, blenders) {
  const file = path.join(path.dirname(atlasPath), page.name);
  let bytes;
  try {
    bytes = fs.readFileSync(file);
  } catch (error) {
    throw new Error(`${file}: ${error.message}`);
  }
  let image;
  if (page.pma) {
    // Gap (c): the bytes are already premultiplied. spine-canvaskit decodes them with MakeImageFromEncoded, which
    // takes PNG pixels as straight and premultiplies them again. Hand them to Skia as premultiplied instead.
    let png;
    try {
      png = PNG.sync.read(bytes);
    } catch (error) {
      throw new Error(`${file}: ${error.message}`);
    }
    image = ck.MakeImage({ width: png.width, height: png.height, colorType: ck.ColorType.RGBA_8888,
                           alphaType: ck.AlphaType.Premul, colorSpace: ck.ColorSpace.SRGB },
                         png.data, png.width * 4);
  } else {
    // Straight pages as spine-canvaskit loads them (Skia premultiplies the decoded pixels before filtering).
    image = ck.MakeImageFromEncoded(bytes);
  }
  if (!image) throw new Error(`${file}: not an image that CanvasKit can decode`);
  const { filter, mipmap } = sampling(ck, page);
  const shader = image.makeShaderOptions(ck.TileMode.Clamp, ck.TileMode.Clamp, filter, mipmap);
  const paintPerBlendMode = new Map();
  for (const [blendMode, blend] of blenders) {
    const paint = new ck.Paint();
    paint.setShader(shader);
    if (blend.mode !== undefined) paint.setBlendMode(blend.mode);
    else paint.setBlender(blend.blender);
    paintPerBlendMode.set(blendMode, paint);
  }
  return new PageTexture({ image, shader, paintPerBlendMode });
}

// ---- The renderer ----------------------------------------------------------------------------------------------

// spine-webgl's two-colour fragment shader (Shader.newTwoColoredTextured), with its premultiplied inputs:
//   light = (r*a, g*a, b*a, a) of skeleton x slot x attachment colour,
//   dark  = (slot dark r*a, g*a, b*a, 1)            (SkeletonRenderer.draw with premultipliedAlpha),
//   texel: premultiplied (Skia's child shader output).
const TWO_COLOR_SKSL = `
uniform shader page;
uniform half4 light;
uniform half4 dark;
half4 main(float2 uv) {
  half4 t = page.eval(uv);
  return half4(((t.a - 1.0) * dark.a + 1.0 - t.rgb) * dark.rgb + t.rgb * light.rgb, t.a * light.a);
}`;

// spine-webgl's multiply: blendFuncSeparate(DST_COLOR, ONE_MINUS_SRC_ALPHA, ONE, ONE_MINUS_SRC_ALPHA), premultiplied.
const MULTIPLY_SKSL = `
half4 main(half4 src, half4 dst) {
  return half4(src.rgb * dst.rgb + dst.rgb * (1.0 - src.a), src.a + dst.a * (1.0 - src.a));
}`;

function makeEffect(make, sksl, what) {
  let message = '';
  const effect = make(sksl, (error) => { message = error; });
  if (!effect) throw new Error(`CanvasKit could not compile the ${what}: ${message}`);
  return effect;
}

class ReferenceRenderer {
  static QUAD_TRIANGLES = [0, 1, 2, 2, 3, 0];

  constructor(ck) {
    this.ck = ck;
    this.clipper = new spine.SkeletonClipping();
    this.twoColorEffect = makeEffect((s, cb) => ck.RuntimeEffect.Make(s, cb), TWO_COLOR_SKSL, 'two-colour shader');
    this.multiplyBlender = makeEffect((s, cb) => ck.RuntimeEffect.MakeForBlender(s, cb), MULTIPLY_SKSL, 'multiply blender')
      .makeBlender([]);
    // spine-webgl's PolygonBatcher.blendModesGL with premultiplied alpha. Normal (ONE, ONE_MINUS_SRC_ALPHA) is
    // SrcOver, additive (ONE, ONE) is Plus, screen (ONE, ONE_MINUS_SRC_COLOR; alpha ONE, ONE_MINUS_SRC_ALPHA) is
    // Screen, exactly; multiply has no Skia mode (Skia's Multiply adds src * (1 - dst.a)): gap (b).
    this.blenders = new Map([
      [spine.BlendMode.Normal, { mode: ck.BlendMode.SrcOver }],
      [spine.BlendMode.Additive, { mode: ck.BlendMode.Plus }],
      [spine.BlendMode.Multiply, { blender: this.multiplyBlender }],
      [spine.BlendMode.Screen, { mode: ck.BlendMode.Screen }],
    ]);
  }

  // spine-canvaskit's SkeletonRenderer.render, with the gaps closed.
  render(canvas, skeleton) {
    const ck = this.ck;
    const clipper = this.clipper;
    const drawOrder = skeleton.drawOrder;
    const skeletonColor = skeleton.color;
    for (let i = 0, n = drawOrder.length; i < n; i++) {
      const slot = drawOrder[i];
      if (!slot.bone.active) {
        clipper.clipEndWithSlot(slot);
        continue;
      }
      const attachment = slot.getAttachment();
      let positions;
      let triangles;
      let numVertices = 4;
      if (attachment instanceof spine.RegionAttachment) {
        positions = spine.Utils.newFloatArray(8);
        attachment.computeWorldVertices(slot, positions, 0, 2);
        triangles = ReferenceRenderer.QUAD_TRIANGLES;
      } else if (attachment instanceof spine.MeshAttachment) {
        positions = spine.Utils.newFloatArray(attachment.worldVerticesLength);
        numVertices = attachment.worldVerticesLength >> 1;
        attachment.computeWorldVertices(slot, 0, attachment.worldVerticesLength, positions, 0, 2);
        triangles = attachment.triangles;
      } else if (attachment instanceof spine.ClippingAttachment) {
        clipper.clipStart(slot, attachment);
        continue;
      } else {
        clipper.clipEndWithSlot(slot);
        continue;
      }

      const texture = attachment.region?.texture;
      if (texture) {
        let uvs = attachment.uvs;  // (read after computeWorldVertices: a sequence sets the region there)
        if (clipper.isClipping()) {
          clipper.clipTrianglesUnpacked(positions, triangles, triangles.length, uvs);
          if (clipper.clippedVertices.length <= 0) {
            clipper.clipEndWithSlot(slot);
            continue;
          }
          positions = clipper.clippedVertices;
          uvs = clipper.clippedUVs;
          triangles = clipper.clippedTriangles;
          numVertices = clipper.clippedVertices.length / 2;
        }
        const page = texture.getImage();
        const width = page.image.width();
        const height = page.image.height();
        const scaledUvs = spine.Utils.newFloatArray(numVertices * 2);
        for (let v = 0; v < numVertices * 2; v += 2) {
          scaledUvs[v] = uvs[v] * width;
          scaledUvs[v + 1] = uvs[v + 1] * height;
        }
        const attachmentColor = attachment.color;
        const slotColor = slot.color;
        const clamp01 = (x) => Math.min(1, Math.max(0, x));
        const r = clamp01(skeletonColor.r * slotColor.r * attachmentColor.r);
        const g = clamp01(skeletonColor.g * slotColor.g * attachmentColor.g);
        const b = clamp01(skeletonColor.b * slotColor.b * attachmentColor.b);
        const a = clamp01(skeletonColor.a * slotColor.a * attachmentColor.a);
        const paint = page.paintPerBlendMode.get(slot.data.blendMode);
        if (!slot.darkColor) {
          // As spine-canvaskit: straight per-vertex colour (packed as it packs it), Modulate with the page's
          // premultiplied texel = the premultiplied tinted texel.
          const finalColor = ((a * 255) << 24 | (r * 255) << 16 | (g * 255) << 8 | (b * 255) << 0) >>> 0;
          const colors = new Uint32Array(numVertices).fill(finalColor);
          const vertices = ck.MakeVertices(ck.VertexMode.Triangles, positions, scaledUvs, colors, triangles, false);
          canvas.drawVertices(vertices, ck.BlendMode.Modulate, paint);
          vertices.delete();
        } else {
          // Gap (a): spine-canvaskit ignores the dark colour. Draw with the two-colour shader (colour is per slot,
          // so it goes in uniforms; the vertices carry no colour and Skia uses the shader's output as is).
          const dark = slot.darkColor;
          const shader = this.twoColorEffect.makeShaderWithChildren(
            [r * a, g * a, b * a, a, clamp01(dark.r) * a, clamp01(dark.g) * a, clamp01(dark.b) * a, 1],
            [page.shader]);
          const twoColorPaint = paint.copy();
          twoColorPaint.setShader(shader);
          const vertices = ck.MakeVertices(ck.VertexMode.Triangles, positions, scaledUvs, null, triangles, false);
          canvas.drawVertices(vertices, ck.BlendMode.Dst, twoColorPaint);
          vertices.delete();
          twoColorPaint.delete();
          shader.delete();
        }
      }
      clipper.clipEndWithSlot(slot);
    }
    clipper.clipEnd();
  }
}

// ---- Main ------------------------------------------------------------------------------------------------------

export async function renderReference(args) {
  const ck = await CanvasKitInit();
  let renderer;
  let textureForPage;
  if (args.stock) {
    // spine-canvaskit's own loader and renderer, unchanged.
    const stockAtlas = await spine.loadTextureAtlas(ck, args.atlas, async (file) => fs.readFileSync(file));
    let index = 0;
    textureForPage = () => stockAtlas.pages[index++].texture;
    renderer = new spine.SkeletonRenderer(ck);
  } else {
    renderer = new ReferenceRenderer(ck);
    textureForPage = (page) => loadPage(ck, args.atlas, page, renderer.blenders);
  }
  const data = loadSkeletonData(spine, args.skeleton, args.atlas, textureForPage);
  const schedule = readSchedule(args, data);
  const stepper = new PoseStepper(spine, data, schedule,
                                  { skin: args.skin, label: args.schedule, skeletonPath: args.skeleton });
  for (let step = 1; step <= args.steps; step++) stepper.step(args.dt);

  const surface = ck.MakeSurface(args.width, args.height);
  if (!surface) throw new Error(`CanvasKit could not make a ${args.width}x${args.height} surface`);
  const canvas = surface.getCanvas();
  const [br, bg, bb, ba] = args.backgroundRGBA;
  canvas.clear(ck.Color(br, bg, bb, ba / 255));
  canvas.save();
  canvas.translate(args.ox, args.oy);
  canvas.scale(args.scale, -args.scale);
  renderer.render(canvas, stepper.skeleton);
  canvas.restore();
  surface.flush();

  const snapshot = surface.makeImageSnapshot();
  const pixels = snapshot.readPixels(0, 0, {
    width: args.width, height: args.height, colorType: ck.ColorType.RGBA_8888,
    alphaType: ck.AlphaType.Unpremul, colorSpace: ck.ColorSpace.SRGB,
  });
  if (!pixels) throw new Error('CanvasKit could not read the pixels back');
  snapshot.delete();
  surface.delete();
  const png = new PNG({ width: args.width, height: args.height, colorType: 6, inputColorType: 6, bitDepth: 8 });
  png.data = Buffer.from(pixels.buffer, pixels.byteOffset, pixels.byteLength);
  try {
    fs.writeFileSync(args.out, PNG.sync.write(png, { colorType: 6 }));
  } catch (error) {
    throw new Error(`${args.out}: ${error.message}`);
  }
}

if (process.argv[1] && fs.realpathSync(path.resolve(process.argv[1])) === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('-h') || process.argv.includes('--help')) {
    process.stdout.write(USAGE + '\n');
    process.exit(0);
  }
  try {
    await renderReference(parseArgs(process.argv.slice(2)));
  } catch (error) {
    process.stderr.write(`render_reference: ${error.message}\n`);
    if (error instanceof UsageError) process.stderr.write(USAGE + '\n');
    process.exitCode = error instanceof UsageError ? 2 : 1;
  }
}
