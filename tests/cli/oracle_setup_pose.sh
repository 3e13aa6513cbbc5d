#!/usr/bin/env bash
# Setup poses against the official runtime: for every example skeleton (JSON and binary exports), and for a set of
# posing cases (skins and skin switches, combined skins, skeleton flips and offsets, moved IK targets with stretch,
# compress, softness and mix, every inherit mode, transform constraints in all four modes with offsets, deformed
# meshes, sequence frames), the official runtime (tests/oracle/setup_pose_dump.mjs) prints every bone's world
# transform, every slot's attachment and world vertices and the update cache; the runtime unit tests' SetupPoseOracle
# test replays the same operations on our pose and compares everything with DESIGN.md's tolerances.
#
#   bash oracle_setup_pose.sh SPINEGPU_BIN EXAMPLES_DIR BUILD_DIR      (exit 77: skipped)
set -u

examples=${2:?usage: oracle_setup_pose.sh SPINEGPU_BIN EXAMPLES_DIR BUILD_DIR}
build_dir=${3:?usage: oracle_setup_pose.sh SPINEGPU_BIN EXAMPLES_DIR BUILD_DIR}
examples=${SPINE_EXAMPLES:-$examples}
script_dir=.
case ${BASH_SOURCE[0]} in */*) script_dir=${BASH_SOURCE[0]%/*} ;; esac
source_dir=$(cd "$script_dir/../.." && pwd)
oracle_dir=$source_dir/tests/oracle
tests_bin=${SPINEGPU_RUNTIME_TESTS:-$build_dir/tests/spinegpu_runtime_tests}

if [ ! -d "$examples/spineboy" ]; then
    echo "skipped: Spine example exports not found at $examples (set SPINE_EXAMPLES)"
    exit 77
fi
if [ ! -x "$tests_bin" ]; then
    echo "skipped: $tests_bin is not built (SPINEGPU_TESTS=OFF?)"
    exit 77
fi
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    echo "skipped: node and npm are needed for the oracle (the official runtime); install nodejs and npm"
    exit 77
fi

# Install the pinned runtime once; other oracle tests may be doing the same, so take a lock.
if [ ! -d "$oracle_dir/node_modules/@esotericsoftware/spine-core" ]; then
    install_log=$build_dir/oracle-npm-ci.log
    install_runtime() { npm ci --prefix "$oracle_dir" --no-audit --no-fund --loglevel=error >"$install_log" 2>&1; }
    if command -v flock >/dev/null 2>&1; then
        exec 9>"$build_dir/oracle-npm.lock"
        flock 9
    fi
    if [ ! -d "$oracle_dir/node_modules/@esotericsoftware/spine-core" ] && ! install_runtime; then
        cat "$install_log"
        echo "skipped: 'npm ci' in $oracle_dir failed (no registry access?); see above"
        exit 77
    fi
fi

dumps=$(mktemp -d)
trap 'rm -rf "$dumps"' EXIT

# One case per line: name, skeleton without extension and atlas (both relative to the examples folder, or to the
# source tree when they start with @), operations (setup_pose_dump.mjs's). Each case runs on the .json and on the
# .skel export when that exists.
cases=$(cat <<'EOF'
spineboy         spineboy/spineboy-pro  spineboy/spineboy.atlas
spineboy-ess     spineboy/spineboy-ess  spineboy/spineboy.atlas
raptor           raptor/raptor-pro      raptor/raptor.atlas
owl              owl/owl-pro            owl/owl.atlas
stretchyman      stretchyman/stretchyman-pro stretchyman/stretchyman.atlas
tank             tank/tank-pro          tank/tank.atlas
hero             hero/hero-pro          hero/hero.atlas
hero-ess         hero/hero-ess          hero/hero.atlas
goblins          goblins/goblins-pro    goblins/goblins.atlas
vine             vine/vine-pro          vine/vine.atlas
dragon           dragon/dragon-ess      dragon/dragon.atlas
powerup          powerup/powerup-pro    powerup/powerup.atlas
speedy           speedy/speedy-ess      speedy/speedy.atlas
celestial        celestial-circus/celestial-circus-pro celestial-circus/celestial-circus.atlas
chibi            chibi-stickers/chibi-stickers chibi-stickers/chibi-stickers.atlas
mix-and-match    mix-and-match/mix-and-match-pro mix-and-match/mix-and-match.atlas
spineboy-flip-x  spineboy/spineboy-pro  spineboy/spineboy.atlas skeleton.scaleX=-1 skeleton.x=120 skeleton.y=-40
spineboy-flip-xy spineboy/spineboy-pro  spineboy/spineboy.atlas skeleton.scaleX=-1.5 skeleton.scaleY=-0.75
spineboy-aim     spineboy/spineboy-pro  spineboy/spineboy.atlas bone:crosshair.x=-120 bone:crosshair.y=310 ik:aim-ik.mix=0.8
spineboy-aim-far spineboy/spineboy-pro  spineboy/spineboy.atlas bone:crosshair.x=600 bone:crosshair.y=-200 ik:aim-ik.mix=1 skeleton.scaleX=-1
spineboy-legs    spineboy/spineboy-pro  spineboy/spineboy.atlas bone:front-leg-target.x=80 bone:front-leg-target.y=-90 bone:rear-leg-target.x=10 bone:rear-leg-target.y=60 ik:front-leg-ik.softness=40 ik:rear-leg-ik.bendDirection=1 ik:rear-leg-ik.mix=0.6
spineboy-stretch spineboy/spineboy-pro  spineboy/spineboy.atlas bone:front-leg-target.x=300 bone:front-leg-target.y=-200 ik:front-leg-ik.stretch=1 data.ik:front-leg-ik.uniform=1 ik:front-foot-ik.stretch=1 ik:front-foot-ik.compress=1 bone:front-foot-target.x=200
spineboy-ik-ellipse spineboy/spineboy-pro spineboy/spineboy.atlas bone:front-thigh.scaleX=1.3 bone:front-thigh.scaleY=0.8 bone:front-leg-target.x=60 bone:front-leg-target.y=-60 ik:front-leg-ik.mix=0.9
spineboy-ik-ellipse-far spineboy/spineboy-pro spineboy/spineboy.atlas bone:front-thigh.scaleX=1.3 bone:front-thigh.scaleY=0.8 bone:front-leg-target.x=500 bone:front-leg-target.y=-400 bone:rear-thigh.scaleX=-1 bone:rear-leg-target.x=-20
spineboy-ik-inherit spineboy/spineboy-pro spineboy/spineboy.atlas bone:rear-upper-arm.inherit=2 ik:aim-ik.mix=1 bone:crosshair.x=200 bone:crosshair.y=100 bone:aim-constraint-target.inherit=1 bone:front-foot.inherit=3 ik:front-foot-ik.stretch=1 bone:front-foot-target.x=150 bone:rear-foot.inherit=4 ik:rear-foot-ik.compress=1 bone:rear-foot-target.x=40 bone:rear-foot-target.y=30 skeleton.scaleX=-1.2
spineboy-noscale spineboy/spineboy-pro  spineboy/spineboy.atlas applied bone:torso.scaleX=1.6 bone:torso.scaleY=0.7 bone:torso.shearY=12 bone:neck.inherit=3 bone:head.inherit=4 bone:front-upper-arm.inherit=2 bone:rear-upper-arm.inherit=1 skeleton.scaleX=-1
spineboy-inherit spineboy/spineboy-pro  spineboy/spineboy.atlas applied bone:hip.rotation=150 bone:hip.scaleX=-1.2 bone:torso.inherit=4 bone:front-thigh.inherit=3 bone:rear-thigh.inherit=2 bone:neck.inherit=1 skeleton.scaleY=-1
spineboy-tc      spineboy/spineboy-pro  spineboy/spineboy.atlas transform:shoulder.mixRotate=0.7 transform:shoulder.mixX=0.5 transform:shoulder.mixY=0.3 transform:shoulder.mixScaleX=0.6 transform:shoulder.mixScaleY=0.4 transform:shoulder.mixShearY=0.8 data.transform:shoulder.offsetScaleX=0.2 data.transform:shoulder.offsetShearY=10 transform:aim-head-transform.mixRotate=0.5
spineboy-tc-local spineboy/spineboy-pro spineboy/spineboy.atlas data.transform:shoulder.local=1 transform:shoulder.mixRotate=0.7 transform:shoulder.mixX=0.5 transform:shoulder.mixY=0.3 transform:shoulder.mixScaleX=0.6 transform:shoulder.mixScaleY=0.4 transform:shoulder.mixShearY=0.8 data.transform:shoulder.offsetRotation=20 data.transform:shoulder.offsetScaleY=0.3
spineboy-tc-rel  spineboy/spineboy-pro  spineboy/spineboy.atlas data.transform:shoulder.relative=1 transform:shoulder.mixRotate=0.7 transform:shoulder.mixX=0.5 transform:shoulder.mixY=0.3 transform:shoulder.mixScaleX=0.6 transform:shoulder.mixScaleY=0.4 transform:shoulder.mixShearY=0.8 data.transform:shoulder.offsetShearY=-15 skeleton.scaleX=-1
spineboy-tc-both spineboy/spineboy-pro  spineboy/spineboy.atlas data.transform:shoulder.relative=1 data.transform:shoulder.local=1 transform:shoulder.mixRotate=0.7 transform:shoulder.mixX=0.5 transform:shoulder.mixY=0.3 transform:shoulder.mixScaleX=0.6 transform:shoulder.mixScaleY=0.4 transform:shoulder.mixShearY=0.8 data.transform:shoulder.offsetX=5 bone:front-shoulder.scaleX=1.3
owl-tc           owl/owl-pro            owl/owl.atlas bone:control.x=30 bone:control.y=-25 transform:control-back.mixRotate=1 transform:control-back.mixScaleY=0.5
tank-tc          tank/tank-pro          tank/tank.atlas bone:wheel-big1.rotation=77 bone:wheel-mid1.rotation=-33 bone:wheel-small1.rotation=140 bone:cannon-target.x=-300 bone:cannon-target.y=400
raptor-flip      raptor/raptor-pro      raptor/raptor.atlas applied skeleton.scaleX=-1 skeleton.scaleY=1.3
raptor-legs      raptor/raptor-pro      raptor/raptor.atlas bone:back-leg-target.x=-40 bone:back-leg-target.y=-30 bone:front-leg-target.x=120 ik:front-leg-ik.softness=25 bone:spineboy-front-arm-target.x=90 ik:spineboy-front-arm-ik.stretch=1
stretchyman-far  stretchyman/stretchyman-pro stretchyman/stretchyman.atlas bone:back-leg-ik-target.x=-200 bone:back-leg-ik-target.y=-150 bone:front-arm-ik-target.x=260 bone:front-arm-ik-target.y=400 ik:front-arm-ik.stretch=1 ik:back-leg-ik.stretch=1
stretchyman-flip stretchyman/stretchyman-pro stretchyman/stretchyman.atlas applied skeleton.scaleX=-1 bone:front-leg-ik-target.x=60
goblin           goblins/goblins-pro    goblins/goblins.atlas skin=goblin setup
goblin-switch    goblins/goblins-pro    goblins/goblins.atlas skin=goblin setup skin=goblingirl
goblingirl-bare  goblins/goblins-pro    goblins/goblins.atlas skin=goblingirl
goblin-custom    goblins/goblins-pro    goblins/goblins.atlas skin=goblin setup skin=goblingirl+goblin attachment:left-hand-item=dagger
hero-sword       hero/hero-pro          hero/hero.atlas skin=weapon/sword setup
hero-morningstar hero/hero-pro          hero/hero.atlas skin=weapon/sword setup skin=weapon/morningstar setup
hero-noskin      hero/hero-pro          hero/hero.atlas skin=weapon/morningstar setup noskin
chibi-skins      chibi-stickers/chibi-stickers chibi-stickers/chibi-stickers.atlas skin=erikari setup skin=spineboy
goblin-deform    goblins/goblins-pro    goblins/goblins.atlas skin=goblin setup deform:head=1.5 deform:left-hand-item=0.75 attachment:right-hand-item=dagger deform:right-hand-item=2
goblin-linked    goblins/goblins-pro    goblins/goblins.atlas skin=goblin setup deform:head=1.5 deform:torso=-2 deform:left-foot=1.25 skin=goblingirl
spineboy-deform  spineboy/spineboy-pro  spineboy/spineboy.atlas deform:head=1.25 deform:torso=-0.5 deform:front-shin=3 bone:torso.rotation=40
raptor-deform    raptor/raptor-pro      raptor/raptor.atlas deform:raptor-body=2 deform:raptor-saddle=-1 skeleton.scaleX=-1
dragon-sequence  dragon/dragon-ess      dragon/dragon.atlas sequence:left-wing=4 sequence:right-wing=20
celestial-reset  celestial-circus/celestial-circus-pro celestial-circus/celestial-circus.atlas physics=reset
cache-rig        @tests/runtime/update_cache_rig spineboy/spineboy.atlas
cache-rig-skin   @tests/runtime/update_cache_rig spineboy/spineboy.atlas skin=extra bone:t.x=20 bone:u.rotation=-70 skeleton.scaleX=-1
spineboy-ik-near spineboy/spineboy-pro  spineboy/spineboy.atlas bone:front-thigh.scaleX=0.5 bone:front-leg-target.x=-17 bone:front-leg-target.y=220 bone:rear-upper-arm.scaleX=-1 ik:aim-ik.mix=1 bone:crosshair.x=80 bone:crosshair.y=500
mm-girl          mix-and-match/mix-and-match-pro mix-and-match/mix-and-match.atlas skin=full-skins/girl setup
mm-custom        mix-and-match/mix-and-match-pro mix-and-match/mix-and-match.atlas skin=skin-base+nose/short+eyelids/girly+eyes/violet+hair/brown+clothes/hoodie-orange+legs/pants-jeans+accessories/bag+accessories/hat-red-yellow setup
mm-custom-switch mix-and-match/mix-and-match-pro mix-and-match/mix-and-match.atlas skin=skin-base+nose/short+eyelids/girly+eyes/violet+hair/brown+clothes/hoodie-orange+legs/pants-jeans+accessories/bag+accessories/hat-red-yellow setup skin=skin-base+nose/long+eyelids/semiclosed+eyes/green+hair/pink+clothes/dress-blue+legs/boots-red+accessories/cape-red+accessories/hat-pointy-blue-yellow skin=full-skins/girl-blue-cape
EOF
)

status=0
count=0
while read -r name skeleton atlas ops; do
    [ -z "$name" ] && continue
    case $skeleton in @*) skeleton=$source_dir/${skeleton#@} ;; *) skeleton=$examples/$skeleton ;; esac
    case $atlas in @*) atlas=$source_dir/${atlas#@} ;; *) atlas=$examples/$atlas ;; esac
    [ -f "$skeleton.json" ] || [ -f "$skeleton.skel" ] || { echo "FAIL: $name: no $skeleton.json or .skel"; status=1; }
    for ext in json skel; do
        [ -f "$skeleton.$ext" ] || continue
        out=$dumps/$name-$ext.txt
        echo "args $skeleton.$ext $atlas $ops" >"$out"
        # shellcheck disable=SC2086 # the operations are words
        if ! node "$oracle_dir/setup_pose_dump.mjs" "$skeleton.$ext" "$atlas" $ops >>"$out"; then
            echo "FAIL: the official runtime could not pose $name ($ext)"
            status=1
        fi
        count=$((count + 1))
    done
done <<<"$cases"
[ $status -eq 0 ] || exit 1

echo "$count setup poses dumped by the official runtime; comparing"
# (The comparison must have run: a filter that matches no test passes with nothing run.)
SPINEGPU_SETUP_POSE_ORACLE=$dumps "$tests_bin" --gtest_filter='SetupPoseOracle.*' --gtest_brief=0 | tee "$dumps/run.log"
[ "${PIPESTATUS[0]}" -eq 0 ] || exit 1
grep -q "^\[  PASSED  \] 1 test\.$" "$dumps/run.log" || { echo "FAIL: the comparison did not run"; exit 1; }
