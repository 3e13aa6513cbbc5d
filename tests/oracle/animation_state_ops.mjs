// Plays a small AnimationState script with the official runtime (@esotericsoftware/spine-core, pinned in
// package.json) and prints what its listeners and track entries report, for tests/runtime/animation_state_test.cpp,
// which runs the same script on our AnimationState and compares the two logs.
//
//   node tests/oracle/animation_state_ops.mjs SKELETON ATLAS OPS_FILE
//
// The script is one operation per line (tokens separated by spaces; '#' starts a comment):
//   mix SECONDS | pair FROM TO SECONDS                      AnimationStateData default mix / setMix
//   set T ANIM loop|once | add T ANIM loop|once DELAY       setAnimation / addAnimation
//   empty T MIX | addEmpty T MIX DELAY | emptyAll MIX       setEmptyAnimation / addEmptyAnimation / setEmptyAnimations
//   clear T | clearAll                                      clearTrack / clearTracks
//   field NAME VALUE                                        assigns a field of the entry the last set/add returned
//   mixWithDelay MIX DELAY                                  setMixDurationWithDelay on that entry
//   timeScale VALUE                                         AnimationState.timeScale
//   steps N [DT]                                            N steps: update(DT), apply, skeleton.update(DT),
//                                                           updateWorldTransform(Physics.update); DT = 1/60
//   probe T                                                 the track's current entry, its mixing-from chain and
//                                                           its queue: fields that update and apply change
//   bones NAME...                                           world transforms; slots NAME...: attachment names
//   drawOrder                                               the slots in drawing order
// Log lines start with the number of steps run so far: "S note TYPE TRACK ANIMATION [EVENT]", "S probe ...",
// "S bone NAME a= b= c= d= x= y=", "S slot NAME ATTACHMENT|-", "S drawOrder SLOT,SLOT,...".
import * as fs from 'node:fs';
import * as spine from '@esotericsoftware/spine-core';

class StandInTexture extends spine.Texture {
  setFilters() {}
  setWraps() {}
  dispose() {}
}

const [skeletonPath, atlasPath, opsPath] = process.argv.slice(2);
if (!opsPath) {
  process.stderr.write('usage: node animation_state_ops.mjs SKELETON ATLAS OPS_FILE\n');
  process.exit(2);
}
const atlas = new spine.TextureAtlas(fs.readFileSync(atlasPath, 'utf8'));
for (const page of atlas.pages) page.setTexture(new StandInTexture({ width: page.width, height: page.height }));
const loader = new spine.AtlasAttachmentLoader(atlas);
const data = skeletonPath.endsWith('.json')
  ? new spine.SkeletonJson(loader).readSkeletonData(fs.readFileSync(skeletonPath, 'utf8'))
  : new spine.SkeletonBinary(loader).readSkeletonData(new Uint8Array(fs.readFileSync(skeletonPath)));

const stateData = new spine.AnimationStateData(data);
const state = new spine.AnimationState(stateData);
const skeleton = new spine.Skeleton(data);
skeleton.setToSetupPose();
let steps = 0;
const out = [];
const note = (type) => (entry, event) =>
  out.push(`${steps} note ${type} ${entry.trackIndex} ${entry.animation.name}` + (event ? ` ${event.data.name}` : ''));
state.addListener({ start: note('start'), interrupt: note('interrupt'), end: note('end'), dispose: note('dispose'),
                    complete: note('complete'), event: note('event') });

const num = (v) => String(v);
function probeLine(role, e) {
  return `${steps} probe ${role} ${e.animation.name} trackTime=${num(e.trackTime)} delay=${num(e.delay)}` +
         ` mixTime=${num(e.mixTime)} mixDuration=${num(e.mixDuration)} trackLast=${num(e.trackLast)}` +
         ` animationLast=${num(e.animationLast)} animationTime=${num(e.getAnimationTime())}` +
         ` trackComplete=${num(e.getTrackComplete())} interruptAlpha=${num(e.interruptAlpha)}` +
         ` totalAlpha=${num(e.totalAlpha)}`;
}

let last = null;
const FIELDS = { alpha: 'alpha', mixDuration: 'mixDuration', timeScale: 'timeScale', trackTime: 'trackTime',
                 reverse: 'reverse', holdPrevious: 'holdPrevious', shortestRotation: 'shortestRotation',
                 eventThreshold: 'eventThreshold', mixAttachmentThreshold: 'mixAttachmentThreshold',
                 alphaAttachmentThreshold: 'alphaAttachmentThreshold', mixDrawOrderThreshold: 'mixDrawOrderThreshold',
                 animationStart: 'animationStart', animationEnd: 'animationEnd', trackEnd: 'trackEnd' };
for (const rawLine of fs.readFileSync(opsPath, 'utf8').split('\n')) {
  const t = rawLine.replace(/#.*/, '').trim().split(/\s+/).filter((s) => s.length);
  if (!t.length) continue;
  const [op, ...a] = t;
  switch (op) {
    case 'mix': stateData.defaultMix = Number(a[0]); break;
    case 'pair': stateData.setMix(a[0], a[1], Number(a[2])); break;
    case 'set': last = state.setAnimation(Number(a[0]), a[1], a[2] === 'loop'); break;
    case 'add': last = state.addAnimation(Number(a[0]), a[1], a[2] === 'loop', Number(a[3])); break;
    case 'empty': last = state.setEmptyAnimation(Number(a[0]), Number(a[1])); break;
    case 'addEmpty': last = state.addEmptyAnimation(Number(a[0]), Number(a[1]), Number(a[2])); break;
    case 'emptyAll': state.setEmptyAnimations(Number(a[0])); break;
    case 'clear': state.clearTrack(Number(a[0])); break;
    case 'clearAll': state.clearTracks(); break;
    case 'timeScale': state.timeScale = Number(a[0]); break;
    case 'field':
      if (a[0] === 'mixBlend') last.mixBlend = spine.MixBlend[a[1]];
      else if (['reverse', 'holdPrevious', 'shortestRotation'].includes(a[0])) last[FIELDS[a[0]]] = a[1] === '1';
      else if (FIELDS[a[0]]) last[FIELDS[a[0]]] = Number(a[1]);
      else throw new Error(`unknown field ${a[0]}`);
      break;
    case 'mixWithDelay': last.setMixDurationWithDelay(Number(a[0]), Number(a[1])); break;
    case 'steps': {
      const dt = a[1] !== undefined ? Number(a[1]) : 1 / 60;
      for (let i = 0; i < Number(a[0]); i++) {
        steps++;
        state.update(dt);
        state.apply(skeleton);
        skeleton.update(dt);
        skeleton.updateWorldTransform(spine.Physics.update);
      }
      break;
    }
    case 'probe': {
      const current = state.getCurrent(Number(a[0]));
      if (!current) { out.push(`${steps} probe ${a[0]} none`); break; }
      out.push(probeLine('current', current));
      for (let e = current.mixingFrom; e; e = e.mixingFrom) out.push(probeLine('from', e));
      for (let e = current.next; e; e = e.next) out.push(probeLine('next', e));
      break;
    }
    case 'bones':
      for (const name of a) {
        const b = skeleton.findBone(name);
        out.push(`${steps} bone ${name} a=${b.a} b=${b.b} c=${b.c} d=${b.d} x=${b.worldX} y=${b.worldY}`);
      }
      break;
    case 'slots':
      for (const name of a) {
        const attachment = skeleton.findSlot(name).getAttachment();
        out.push(`${steps} slot ${name} ${attachment ? attachment.name : '-'}`);
      }
      break;
    case 'drawOrder': out.push(`${steps} drawOrder ${skeleton.drawOrder.map((slot) => slot.data.name).join(',')}`); break;
    default: throw new Error(`unknown operation ${op}`);
  }
}
process.stdout.write(out.join('\n') + '\n');
