// AnimationState against the official runtime, for mixing: interrupted mixes, reverse, hold previous, additive
// tracks, attachment and draw order thresholds, rotation. Each test plays a small script on an example skeleton
// (spineboy-pro unless named) with our AnimationState and compares the log (listener notifications in order, entry
// times, bone world transforms, slot attachments, draw order) with the log the official runtime printed for the
// same script.
//
// The expected logs come from @esotericsoftware/spine-core 4.2.119: save a test's ops text to OPS and run
//   node tests/oracle/animation_state_ops.mjs $E/spineboy/spineboy-pro.json $E/spineboy/spineboy.atlas OPS
// (with E=../shared/spine-examples; other skeletons as named in the test). The script language is described in
// that file.
#include <gtest/gtest.h>

#include "animation_state_ops.hpp"

namespace spinegpu {
namespace {

using test::play_and_compare;

// A mix interrupted by a third animation: interruptAlpha, the mixing-from chain, rotate mixing, the pose.
TEST(AnimationStateOracle, an_interrupted_mix_keeps_its_interrupt_alpha) {
    SPINEGPU_REQUIRE_EXAMPLES();
    play_and_compare(R"ops(
        mix 0.4
        set 0 run loop
        steps 10
        set 0 death once
        steps 6
        bones torso front-upper-arm rear-upper-arm head
        set 0 jump once
        probe 0
        steps 5
        bones torso front-upper-arm rear-upper-arm head gun
        probe 0
        steps 20
        bones torso front-upper-arm rear-upper-arm head gun
        probe 0
        steps 20
        probe 0
    )ops",
                     R"log(
        0 note start 0 run
        10 note interrupt 0 run
        10 note start 0 death
        16 bone torso a=0.47687959167574756 b=-0.878968639719027 c=0.8789686110688665 d=0.47687961393765116 x=-14.919921553224395 y=259.35254682683734
        16 bone front-upper-arm a=0.2606465526095796 b=0.9654343020250025 c=-0.9654342828556476 d=0.26064655872126136 x=27.52439446613778 y=355.00052067316346
        16 bone rear-upper-arm a=-0.9050339877303059 b=0.42533928183504754 c=-0.4253392463835892 d=-0.9050339782941095 x=20.465691187185772 y=347.0649442051736
        16 bone head a=0.13716023924702037 b=-0.9833266912026105 c=1.0023715250441376 d=0.13455418891818083 x=63.81548767660867 y=391.3130262411196
        16 note interrupt 0 death
        16 note start 0 jump
        16 probe current jump trackTime=0 delay=0 mixTime=0 mixDuration=0.4 trackLast=-1 animationLast=-1 animationTime=0 trackComplete=1.333299994468689 interruptAlpha=0.24999999999999997 totalAlpha=0
        16 probe from death trackTime=0.09999999999999999 delay=0 mixTime=0.09999999999999999 mixDuration=0.4 trackLast=0.08333333333333333 animationLast=0.08333333333333333 animationTime=0.09999999999999999 trackComplete=4.933300018310547 interruptAlpha=1 totalAlpha=0
        16 probe from run trackTime=0.26666666666666666 delay=0 mixTime=0 mixDuration=0 trackLast=0.24999999999999997 animationLast=0.24999999999999997 animationTime=0.26666666666666666 trackComplete=0.666700005531311 interruptAlpha=1 totalAlpha=35.75
        21 bone torso a=0.3450614832751351 b=-0.9385800894279158 c=0.9385800688052042 d=0.34506150601170593 x=-18.340976186361733 y=290.0824595735046
        21 bone front-upper-arm a=-0.40560568959128757 b=0.9140481735465765 c=-0.914048143393178 d=-0.4056056614087462 x=10.38874559048983 y=389.72597228684725
        21 bone rear-upper-arm a=-0.3379659377241561 b=0.9411583497362765 c=-0.9411583393277527 d=-0.3379659242789753 x=12.56002055368396 y=379.19159228024114
        21 bone head a=0.24181742252452254 b=-0.9979831387573467 c=0.9591651846608076 d=0.2516038458189891 x=48.02095012674009 y=427.93711725231526
        21 bone gun a=-0.44703034285774446 b=0.8945188164468743 c=-0.8945188004227083 d=-0.44703028451916665 x=-10.891599605172186 y=296.9744166910568
        21 probe current jump trackTime=0.08333333333333333 delay=0 mixTime=0.08333333333333333 mixDuration=0.4 trackLast=0.06666666666666667 animationLast=0.06666666666666667 animationTime=0.08333333333333333 trackComplete=1.333299994468689 interruptAlpha=0.24999999999999997 totalAlpha=0
        21 probe from death trackTime=0.18333333333333332 delay=0 mixTime=0.18333333333333332 mixDuration=0.4 trackLast=0.16666666666666666 animationLast=0.16666666666666666 animationTime=0.18333333333333332 trackComplete=4.933300018310547 interruptAlpha=1 totalAlpha=7.239583333333337
        21 probe from run trackTime=0.35 delay=0 mixTime=0 mixDuration=0 trackLast=0.3333333333333333 animationLast=0.3333333333333333 animationTime=0.35 trackComplete=0.666700005531311 interruptAlpha=1 totalAlpha=33.041666666666664
        41 bone torso a=0.10767394147965093 b=-0.9941862639240985 c=0.9941862563478188 d=0.10767396454105357 x=-11.810369938843408 y=871.0486132188198
        41 bone front-upper-arm a=-0.9479744857870103 b=0.3183463297230244 c=-0.3183463117456454 d=-0.9479744798498925 x=-11.282109006107415 y=975.1572531537091
        41 bone rear-upper-arm a=0.49459104208651383 b=0.8691258051168262 c=-0.8691258382415746 d=0.49459105659997604 x=0.011844036062407248 y=960.2734982752311
        41 bone head a=0.6347410987418646 b=-0.774726021562409 c=0.7707545383669006 d=0.6380116633013891 x=17.399044386145984 y=1018.1030937554855
        41 bone gun a=0.692491428444735 b=0.7214260463954156 c=-0.7214261016707711 d=0.6924914879917037 x=45.07024994670006 y=887.3761731488099
        41 probe current jump trackTime=0.41666666666666663 delay=0 mixTime=0.41666666666666663 mixDuration=0.4 trackLast=0.39999999999999997 animationLast=0.39999999999999997 animationTime=0.41666666666666663 trackComplete=1.333299994468689 interruptAlpha=0.24999999999999997 totalAlpha=0
        41 probe from death trackTime=0.5166666666666666 delay=0 mixTime=0.41666666666666663 mixDuration=0.4 trackLast=0.49999999999999994 animationLast=0.49999999999999994 animationTime=0.5166666666666666 trackComplete=4.933300018310547 interruptAlpha=1 totalAlpha=1.4999999999999998
        41 probe from run trackTime=0.5833333333333335 delay=0 mixTime=0 mixDuration=0 trackLast=0.5833333333333335 animationLast=0.5833333333333335 animationTime=0.5833333333333335 trackComplete=0.666700005531311 interruptAlpha=1 totalAlpha=26
        42 note end 0 death
        42 note dispose 0 death
        42 note end 0 run
        42 note dispose 0 run
        61 probe current jump trackTime=0.7500000000000007 delay=0 mixTime=0.41666666666666663 mixDuration=0.4 trackLast=0.733333333333334 animationLast=0.733333333333334 animationTime=0.7500000000000007 trackComplete=1.333299994468689 interruptAlpha=0.24999999999999997 totalAlpha=0
    )log");
}

// Reverse: the pose at duration - time, no events, complete at the end.
TEST(AnimationStateOracle, reverse_plays_backwards_without_events) {
    SPINEGPU_REQUIRE_EXAMPLES();
    play_and_compare(R"ops(
        set 0 jump once
        field reverse 1
        steps 40
        bones hip torso front-foot
        probe 0
        steps 60
        probe 0
        bones hip torso front-foot
    )ops",
                     R"log(
        0 note start 0 jump
        40 bone hip a=0.9999996192282382 b=-0.0008727109383159942 c=0.0008726645281268688 d=0.9999996191877372 x=-32.10920217135777 y=959.8102997749969
        40 bone torso a=0.12159775786212841 b=-0.9925794633002469 c=0.9925794547547876 d=0.12159778088511732 x=-37.522804369427476 y=963.9355771062519
        40 bone front-foot a=0.15714997065442543 b=0.9875747443245355 c=-0.98757475514757 d=0.15714997324484753 x=-63.08407139860748 y=776.7879927466861
        40 probe current jump trackTime=0.6666666666666671 delay=0 mixTime=0 mixDuration=0 trackLast=0.6500000000000004 animationLast=0.6500000000000004 animationTime=0.6666666666666671 trackComplete=1.333299994468689 interruptAlpha=1 totalAlpha=0
        80 note complete 0 jump
        100 probe current jump trackTime=1.6666666666666656 delay=0 mixTime=0 mixDuration=0 trackLast=1.649999999999999 animationLast=1.333299994468689 animationTime=1.333299994468689 trackComplete=1.6666666666666656 interruptAlpha=1 totalAlpha=0
        100 bone hip a=0.9999996192282382 b=-0.0008727109383159942 c=0.0008726645281268688 d=0.9999996191877372 x=-0.17611711224039983 y=201.809924067891
        100 bone torso a=0.5254715942863855 b=-0.8508111567369503 c=0.850811120087201 d=0.5254716139869213 x=-5.589719310310101 y=205.93520139914594
        100 bone front-foot a=0.527549034632868 b=0.8495245676868225 c=-0.8495246026362933 d=0.5275490256555243 x=-20.104612455931026 y=37.1429862730145
    )log");
}

// Track 1 in MixBlend add with alpha, then an entry with holdPrevious and an overridden mix duration.
TEST(AnimationStateOracle, hold_previous_and_an_additive_track_pose_as_the_official_runtime) {
    SPINEGPU_REQUIRE_EXAMPLES();
    play_and_compare(R"ops(
        mix 0.2
        set 0 walk loop
        set 1 shoot once
        field mixBlend add
        field alpha 0.6
        steps 12
        bones front-upper-arm gun torso
        set 1 aim loop
        field holdPrevious 1
        field mixDuration 0.3
        steps 8
        bones front-upper-arm gun torso head
        probe 1
        steps 20
        bones front-upper-arm gun torso head
    )ops",
                     R"log(
        0 note start 0 walk
        0 note start 1 shoot
        1 note event 0 walk footstep
        12 bone front-upper-arm a=-0.599690470572991 b=0.8002320692790832 c=-0.8002320554706487 d=-0.5996904469795057 x=-7.13586024321312 y=342.51894225098016
        12 bone gun a=0.9700030151705439 b=0.24309275302669392 c=-0.24309279207767315 d=0.9700030713486616 x=87.70822937860129 y=276.23090758788794
        12 bone torso a=0.1876350977183976 b=-0.9822388076370443 c=0.9822387979922995 d=0.18763512089853174 x=-3.258111260589934 y=235.9120639062979
        12 note interrupt 1 shoot
        12 note start 1 aim
        13 note complete 1 aim
        14 note complete 1 aim
        15 note complete 1 aim
        16 note complete 1 aim
        17 note complete 1 aim
        18 note complete 1 aim
        19 note complete 1 aim
        20 note complete 1 aim
        20 bone front-upper-arm a=-0.38615464247598846 b=0.9224340715403173 c=-0.9224340565444166 d=-0.3861546155140503 x=-7.972493475039306 y=357.9792062585123
        20 bone gun a=0.9969250838253277 b=-0.07836042458635994 c=0.07836034942154863 d=0.9969251108970233 x=102.87127921868877 y=340.76973731640703
        20 bone torso a=0.07940861029622988 b=-0.9968421560923413 c=0.9968421427751503 d=0.07940863199577178 x=-2.087820849207837 y=253.53870681680078
        20 bone head a=-0.16250260975376837 b=-0.9843709995634288 c=1.0013767324185072 d=-0.15974300116490406 x=21.435073203131893 y=405.9724280918281
        20 probe current aim trackTime=0.13333333333333333 delay=0 mixTime=0.13333333333333333 mixDuration=0.3 trackLast=0.11666666666666665 animationLast=0 animationTime=0 trackComplete=0.13333333333333333 interruptAlpha=1 totalAlpha=0
        20 probe from shoot trackTime=0.3333333333333333 delay=0 mixTime=0 mixDuration=0 trackLast=0.31666666666666665 animationLast=0.31666666666666665 animationTime=0.3333333333333333 trackComplete=0.6333000063896179 interruptAlpha=1 totalAlpha=0
        21 note complete 1 aim
        22 note complete 1 aim
        23 note complete 1 aim
        24 note complete 1 aim
        25 note complete 1 aim
        26 note complete 1 aim
        27 note complete 1 aim
        28 note complete 1 aim
        29 note complete 1 aim
        30 note complete 1 aim
        31 note end 1 shoot
        31 note dispose 1 shoot
        31 note event 0 walk footstep
        31 note complete 1 aim
        32 note complete 1 aim
        33 note complete 1 aim
        34 note complete 1 aim
        35 note complete 1 aim
        36 note complete 1 aim
        37 note complete 1 aim
        38 note complete 1 aim
        39 note complete 1 aim
        40 note complete 1 aim
        40 bone front-upper-arm a=-0.3686615907185794 b=0.9295636881409872 c=-0.929563675601717 d=-0.3686615713908832 x=-29.490963654257662 y=332.5178696599501
        40 bone gun a=0.879774191461151 b=-0.4753918685499492 c=0.4753918019512581 d=0.8797741630628853 x=77.42292955309604 y=379.19788332148016
        40 bone torso a=-0.09734218639585934 b=-0.9952509814356991 c=0.995250965974439 d=-0.0973421667413284 x=-2.2298066602455426 y=232.15193772576842
        40 bone head a=-0.5179556432598978 b=-0.8679702959333682 c=0.8468668809798356 d=-0.5308628655763614 x=-13.080137915469168 y=386.2388907515488
    )log");
}

// MixAttachmentThreshold while mixing out; alphaAttachmentThreshold on a track with alpha below and above it.
TEST(AnimationStateOracle, attachment_thresholds_decide_which_attachments_show) {
    SPINEGPU_REQUIRE_EXAMPLES();
    play_and_compare(R"ops(
        mix 0.3
        set 0 shoot once
        field mixAttachmentThreshold 0.5
        steps 4
        slots muzzle muzzle-glow muzzle-ring front-fist
        set 0 walk loop
        steps 5
        slots muzzle muzzle-glow muzzle-ring
        steps 6
        slots muzzle muzzle-glow muzzle-ring
        steps 10
        slots muzzle muzzle-glow muzzle-ring
        set 1 death once
        field alpha 0.4
        field alphaAttachmentThreshold 0.5
        steps 60
        slots eye mouth front-fist
        set 2 death once
        field alpha 0.7
        field alphaAttachmentThreshold 0.5
        steps 3
        slots eye mouth front-fist
    )ops",
                     R"log(
        0 note start 0 shoot
        4 slot muzzle muzzle01
        4 slot muzzle-glow muzzle-glow
        4 slot muzzle-ring muzzle-ring
        4 slot front-fist front-fist-closed
        4 note interrupt 0 shoot
        4 note start 0 walk
        5 note event 0 walk footstep
        9 slot muzzle muzzle04
        9 slot muzzle-glow muzzle-glow
        9 slot muzzle-ring muzzle-ring
        15 slot muzzle -
        15 slot muzzle-glow -
        15 slot muzzle-ring -
        23 note end 0 shoot
        23 note dispose 0 shoot
        25 slot muzzle -
        25 slot muzzle-glow -
        25 slot muzzle-ring -
        25 note start 1 death
        35 note event 0 walk footstep
        64 note complete 0 walk
        64 note event 0 walk footstep
        85 slot eye eye-indifferent
        85 slot mouth mouth-smile
        85 slot front-fist front-fist-closed
        85 note start 2 death
        88 slot eye eye-surprised
        88 slot mouth mouth-oooo
        88 slot front-fist front-fist-open
    )log");
}

// ShortestRotation: rotate timelines mixed without the direction memory.
TEST(AnimationStateOracle, shortest_rotation_mixes_rotations_the_short_way) {
    SPINEGPU_REQUIRE_EXAMPLES();
    play_and_compare(R"ops(
        mix 0.5
        set 0 death once
        steps 30
        set 0 portal once
        field shortestRotation 1
        steps 10
        bones torso head front-upper-arm rear-upper-arm
    )ops",
                     R"log(
        0 note start 0 death
        30 note interrupt 0 death
        30 note start 0 portal
        40 bone torso a=-0.9073045850658914 b=-0.420473985276157 c=0.4204740484043229 d=-0.9073045752352838 x=-486.4738807440851 y=117.61122007440717
        40 bone head a=-0.18447400945411535 b=-0.982837346440177 c=0.9828374447020294 d=-0.1844739753188716 x=-611.7745036569895 y=204.57630011535886
        40 bone front-upper-arm a=0.9235545090851014 b=0.3834670971424376 c=-0.3834672131932236 d=0.9235545195404344 x=-590.0829186691044 y=152.5578821218074
        40 bone rear-upper-arm a=-0.03555679559562819 b=-0.9993676482056724 c=0.9993676687861672 d=-0.03555672357987261 x=-569.0300572486777 y=151.2234642265198
    )log");
}

// Two mixed rotations equal to float precision but not in double (swing's key reached at 1.0000000000000013 s):
// the official runtime takes the unequal branch; with float rotations we kept the last total and the wing jumped.
// The official log: node tests/oracle/animation_state_ops.mjs $E/celestial-circus/celestial-circus-pro.json
// $E/celestial-circus/celestial-circus.atlas OPS.
TEST(AnimationStateOracle, nearly_equal_mixed_rotations_take_the_official_branch) {
    SPINEGPU_REQUIRE_EXAMPLES();
    play_and_compare(R"ops(
        mix 0.4
        set 0 swing loop
        steps 20
        set 1 eyeblink loop
        steps 20
        set 0 wind-idle loop
        steps 19
        bones wing-front-tip wing-back-tip
        steps 1
        bones wing-front-tip wing-back-tip
        probe 0
    )ops",
                     R"log(
        0 note start 0 swing
        20 note start 1 eyeblink
        40 note complete 1 eyeblink
        40 note interrupt 0 swing
        40 note start 0 wind-idle
        59 bone wing-front-tip a=-0.9888334973679189 b=-0.20154612358884405 c=0.1780694278609682 d=-0.9728251369784607 x=-271.7700416680228 y=560.7492801232039
        59 bone wing-back-tip a=-0.19930545097591754 b=-0.9741684565753492 c=0.8754816196764569 d=-0.2192548873244399 x=288.01356751125263 y=559.6775589603766
        60 note complete 1 eyeblink
        60 bone wing-front-tip a=-0.9957381072692106 b=-0.16514691983690982 c=0.13834439245764166 d=-0.9808633668058557 x=-283.51812442594445 y=557.7355920812169
        60 bone wing-back-tip a=-0.22210700479231132 b=-0.9700279745535346 c=0.8903140111849693 d=-0.2379976966501409 x=277.7346353839804 y=559.2047615734765
        60 probe current wind-idle trackTime=0.3333333333333333 delay=0 mixTime=0.3333333333333333 mixDuration=0.4 trackLast=0.31666666666666665 animationLast=0.31666666666666665 animationTime=0.3333333333333333 trackComplete=9.633299827575684 interruptAlpha=1 totalAlpha=0
        60 probe from swing trackTime=1.0000000000000013 delay=0 mixTime=0 mixDuration=0 trackLast=0.9833333333333347 animationLast=0.9833333333333347 animationTime=1.0000000000000013 trackComplete=2.200000047683716 interruptAlpha=1 totalAlpha=18.333333333333336
    )log",
                     "celestial-circus/celestial-circus-pro.json", "celestial-circus/celestial-circus.atlas");
}

// mixDrawOrderThreshold: the draw order of an animation mixing out stays while the mix is below the threshold,
// then returns to the setup order; draw order keys on a track with alpha. Raptor (roar and jump key draw order):
// node tests/oracle/animation_state_ops.mjs $E/raptor/raptor-pro.json $E/raptor/raptor.atlas OPS.
TEST(AnimationStateOracle, draw_order_threshold_keeps_the_order_while_mixing_out) {
    SPINEGPU_REQUIRE_EXAMPLES();
    play_and_compare(R"ops(
        mix 0.4
        set 0 walk loop
        steps 5
        drawOrder
        set 0 roar once
        field mixDrawOrderThreshold 0.5
        steps 2
        drawOrder
        set 0 walk loop
        steps 10
        drawOrder
        steps 5
        drawOrder
        set 1 jump once
        field alpha 0.5
        steps 3
        drawOrder
        set 1 roar once
        field mixDrawOrderThreshold 0.25
        steps 2
        drawOrder
        steps 4
        drawOrder
    )ops",
                     R"log(
        0 note start 0 walk
        5 drawOrder back-hand,back-arm,back-bracer,back-knee,raptor-jaw-inside,raptor-mouth-inside,raptow-jaw-tooth,raptor-horn-back,raptor-tongue,raptor-hindleg-back,raptor-back-arm,back-thigh,raptor-body,raptor-saddle-strap-front,raptor-saddle-strap-back,raptor-saddle,raptor-jaw,raptor-front-arm,raptor-front-leg,neck,spineboy-torso,head,eyes-open,mouth-smile,visor,raptor-horn,front-thigh,stirrup-back,lower-leg,stirrup-strap,stirrup-front,gun,front-arm,front-bracer,front-hand,tail-shadow
        5 note interrupt 0 walk
        5 note start 0 roar
        7 drawOrder back-hand,back-arm,back-bracer,back-knee,raptor-jaw-inside,raptor-mouth-inside,raptow-jaw-tooth,raptor-horn-back,raptor-tongue,raptor-hindleg-back,raptor-back-arm,back-thigh,raptor-body,raptor-saddle-strap-front,raptor-saddle-strap-back,raptor-saddle,raptor-jaw,raptor-front-arm,raptor-front-leg,neck,spineboy-torso,front-thigh,head,eyes-open,mouth-smile,visor,stirrup-back,lower-leg,stirrup-strap,raptor-horn,stirrup-front,gun,front-arm,front-bracer,front-hand,tail-shadow
        7 note interrupt 0 roar
        7 note start 0 walk
        17 drawOrder back-hand,back-arm,back-bracer,back-knee,raptor-jaw-inside,raptor-mouth-inside,raptow-jaw-tooth,raptor-horn-back,raptor-tongue,raptor-hindleg-back,raptor-back-arm,back-thigh,raptor-body,raptor-saddle-strap-front,raptor-saddle-strap-back,raptor-saddle,raptor-jaw,raptor-front-arm,raptor-front-leg,neck,spineboy-torso,front-thigh,head,eyes-open,mouth-smile,visor,stirrup-back,lower-leg,stirrup-strap,raptor-horn,stirrup-front,gun,front-arm,front-bracer,front-hand,tail-shadow
        22 drawOrder back-hand,back-arm,back-bracer,back-knee,raptor-jaw-inside,raptor-mouth-inside,raptow-jaw-tooth,raptor-horn-back,raptor-tongue,raptor-hindleg-back,raptor-back-arm,back-thigh,raptor-body,raptor-saddle-strap-front,raptor-saddle-strap-back,raptor-saddle,raptor-jaw,raptor-front-arm,raptor-front-leg,neck,spineboy-torso,head,eyes-open,mouth-smile,visor,raptor-horn,front-thigh,stirrup-back,lower-leg,stirrup-strap,stirrup-front,gun,front-arm,front-bracer,front-hand,tail-shadow
        22 note start 1 jump
        25 drawOrder back-hand,back-arm,back-bracer,back-knee,raptor-jaw-inside,raptor-mouth-inside,raptow-jaw-tooth,raptor-horn-back,raptor-tongue,raptor-hindleg-back,raptor-back-arm,back-thigh,raptor-body,raptor-saddle-strap-front,raptor-saddle-strap-back,raptor-saddle,raptor-jaw,raptor-front-arm,raptor-front-leg,neck,spineboy-torso,front-thigh,head,eyes-open,mouth-smile,visor,stirrup-back,lower-leg,stirrup-strap,raptor-horn,stirrup-front,gun,front-arm,front-bracer,front-hand,tail-shadow
        25 note interrupt 1 jump
        25 note start 1 roar
        27 drawOrder back-hand,back-arm,back-bracer,back-knee,raptor-jaw-inside,raptor-mouth-inside,raptow-jaw-tooth,raptor-horn-back,raptor-tongue,raptor-hindleg-back,raptor-back-arm,back-thigh,raptor-body,raptor-saddle-strap-front,raptor-saddle-strap-back,raptor-saddle,raptor-jaw,raptor-front-arm,raptor-front-leg,neck,spineboy-torso,front-thigh,head,eyes-open,mouth-smile,visor,stirrup-back,lower-leg,stirrup-strap,raptor-horn,stirrup-front,gun,front-arm,front-bracer,front-hand,tail-shadow
        31 drawOrder back-hand,back-arm,back-bracer,back-knee,raptor-jaw-inside,raptor-mouth-inside,raptow-jaw-tooth,raptor-horn-back,raptor-tongue,raptor-hindleg-back,raptor-back-arm,back-thigh,raptor-body,raptor-saddle-strap-front,raptor-saddle-strap-back,raptor-saddle,raptor-jaw,raptor-front-arm,raptor-front-leg,neck,spineboy-torso,front-thigh,head,eyes-open,mouth-smile,visor,stirrup-back,lower-leg,stirrup-strap,raptor-horn,stirrup-front,gun,front-arm,front-bracer,front-hand,tail-shadow
    )log",
                     "raptor/raptor-pro.json", "raptor/raptor.atlas");
}

}  // namespace
}  // namespace spinegpu
