// AnimationState against the official runtime, for queues, delays, time scales, empty animations and
// notifications. Each test plays a small script on spineboy-pro with our AnimationState and compares the log
// (listener notifications in order, entry times, bone world transforms, slot attachments) with the log the
// official runtime printed for the same script.
//
// The expected logs come from @esotericsoftware/spine-core 4.2.119: save a test's ops text to OPS and run
//   node tests/oracle/animation_state_ops.mjs $E/spineboy/spineboy-pro.json $E/spineboy/spineboy.atlas OPS
// (with E=../shared/spine-examples). The script language is described in that file.
#include <gtest/gtest.h>

#include "animation_state_ops.hpp"

namespace spinegpu {
namespace {

using test::play_and_compare;

// Add with zero and negative delays: the delay is the previous entry's completion minus the (pair or default) mix.
TEST(AnimationStateOracle, added_entries_start_when_the_previous_completes_minus_the_mix) {
    SPINEGPU_REQUIRE_EXAMPLES();
    play_and_compare(R"ops(
        mix 0.2
        pair walk jump 0.3
        set 0 walk loop
        add 0 jump once 0
        add 0 run loop -0.25
        probe 0
        steps 45
        probe 0
        steps 55
        probe 0
        steps 40
        probe 0
    )ops",
                     R"log(
        0 note start 0 walk
        0 probe current walk trackTime=0 delay=0 mixTime=0 mixDuration=0 trackLast=-1 animationLast=-1 animationTime=0 trackComplete=1 interruptAlpha=1 totalAlpha=0
        0 probe next jump trackTime=0 delay=0.7 mixTime=0 mixDuration=0.3 trackLast=-1 animationLast=-1 animationTime=0 trackComplete=1.333299994468689 interruptAlpha=1 totalAlpha=0
        0 probe next run trackTime=0 delay=0.883299994468689 mixTime=0 mixDuration=0.2 trackLast=-1 animationLast=-1 animationTime=0 trackComplete=0.666700005531311 interruptAlpha=1 totalAlpha=0
        1 note event 0 walk footstep
        31 note event 0 walk footstep
        43 note interrupt 0 walk
        43 note start 0 jump
        45 probe current jump trackTime=0.05000000000000056 delay=0 mixTime=0.05 mixDuration=0.3 trackLast=0.03333333333333389 animationLast=0.03333333333333389 animationTime=0.05000000000000056 trackComplete=1.333299994468689 interruptAlpha=1 totalAlpha=0
        45 probe from walk trackTime=0.7500000000000007 delay=0 mixTime=0 mixDuration=0 trackLast=0.733333333333334 animationLast=0.733333333333334 animationTime=0.7500000000000007 trackComplete=1 interruptAlpha=1 totalAlpha=37.33333333333333
        45 probe next run trackTime=0 delay=0.883299994468689 mixTime=0 mixDuration=0.2 trackLast=-1 animationLast=-1 animationTime=0 trackComplete=0.666700005531311 interruptAlpha=1 totalAlpha=0
        60 note complete 0 walk
        61 note end 0 walk
        61 note dispose 0 walk
        96 note interrupt 0 jump
        96 note start 0 run
        100 probe current run trackTime=0.0833666721979794 delay=0 mixTime=0.08333333333333333 mixDuration=0.2 trackLast=0.06670000553131274 animationLast=0.06670000553131274 animationTime=0.0833666721979794 trackComplete=0.666700005531311 interruptAlpha=1 totalAlpha=0
        100 probe from jump trackTime=0.9666666666666687 delay=0 mixTime=0.3 mixDuration=0.3 trackLast=0.950000000000002 animationLast=0.950000000000002 animationTime=0.9666666666666687 trackComplete=1.333299994468689 interruptAlpha=1 totalAlpha=39.00000000000001
        109 note end 0 jump
        109 note dispose 0 jump
        109 note event 0 run footstep
        129 note event 0 run footstep
        135 note complete 0 run
        140 probe current run trackTime=0.7500333388646468 delay=0 mixTime=0.21666666666666665 mixDuration=0.2 trackLast=0.7333666721979801 animationLast=0.0666666666666691 animationTime=0.08333333333333581 trackComplete=1.333400011062622 interruptAlpha=1 totalAlpha=0
    )log");
}

// Positive delays, on a queued entry and on an empty track; state and entry time scales.
TEST(AnimationStateOracle, positive_delays_wait_scaled_by_the_time_scales) {
    SPINEGPU_REQUIRE_EXAMPLES();
    play_and_compare(R"ops(
        timeScale 0.5
        set 0 idle loop
        field timeScale 1.5
        add 0 walk loop 0.5
        field timeScale 2
        add 1 jump once 0.2
        probe 0
        probe 1
        steps 20
        probe 0
        probe 1
        steps 30
        probe 0
        timeScale 1.25
        steps 40
        probe 0
        probe 1
    )ops",
                     R"log(
        0 note start 0 idle
        0 note start 1 jump
        0 probe current idle trackTime=0 delay=0 mixTime=0 mixDuration=0 trackLast=-1 animationLast=-1 animationTime=0 trackComplete=1.666700005531311 interruptAlpha=1 totalAlpha=0
        0 probe next walk trackTime=0 delay=0.5 mixTime=0 mixDuration=0 trackLast=-1 animationLast=-1 animationTime=0 trackComplete=1 interruptAlpha=1 totalAlpha=0
        0 probe current jump trackTime=0 delay=0.2 mixTime=0 mixDuration=0 trackLast=-1 animationLast=-1 animationTime=0 trackComplete=1.333299994468689 interruptAlpha=1 totalAlpha=0
        20 probe current idle trackTime=0.25000000000000006 delay=0 mixTime=0 mixDuration=0 trackLast=0.23750000000000007 animationLast=0.23750000000000007 animationTime=0.25000000000000006 trackComplete=1.666700005531311 interruptAlpha=1 totalAlpha=0
        20 probe next walk trackTime=0 delay=0.5 mixTime=0 mixDuration=0 trackLast=-1 animationLast=-1 animationTime=0 trackComplete=1 interruptAlpha=1 totalAlpha=0
        20 probe current jump trackTime=0 delay=0.03333333333333338 mixTime=0 mixDuration=0 trackLast=-1 animationLast=-1 animationTime=0 trackComplete=1.333299994468689 interruptAlpha=1 totalAlpha=0
        41 note interrupt 0 idle
        41 note start 0 walk
        41 note event 0 walk footstep
        42 note end 0 idle
        42 note dispose 0 idle
        50 probe current walk trackTime=0.16666666666666693 delay=0 mixTime=0.008333333333333333 mixDuration=0 trackLast=0.15000000000000027 animationLast=0.15000000000000027 animationTime=0.16666666666666693 trackComplete=1 interruptAlpha=1 totalAlpha=0
        58 note event 0 walk footstep
        71 note complete 0 walk
        71 note event 0 walk footstep
        82 note event 0 walk footstep
        90 probe current walk trackTime=1.8333333333333346 delay=0 mixTime=0.008333333333333333 mixDuration=0 trackLast=1.7916666666666679 animationLast=0.7916666666666679 animationTime=0.8333333333333346 trackComplete=2 interruptAlpha=1 totalAlpha=0
        90 probe current jump trackTime=1.0500000000000005 delay=0 mixTime=0 mixDuration=0 trackLast=1.0291666666666672 animationLast=1.0291666666666672 animationTime=1.0500000000000005 trackComplete=1.333299994468689 interruptAlpha=1 totalAlpha=0
    )log");
}

// Set/add/setEmpty animations, clearTrack and clearTracks, a zero-duration looping animation (aim).
TEST(AnimationStateOracle, empty_animations_mix_tracks_out_and_clears_end_every_entry) {
    SPINEGPU_REQUIRE_EXAMPLES();
    play_and_compare(R"ops(
        mix 0.1
        set 0 walk loop
        set 1 shoot once
        field alpha 0.6
        steps 20
        empty 1 0.3
        probe 1
        steps 10
        addEmpty 0 0.25 0
        probe 0
        steps 15
        add 1 aim loop 0
        field mixDuration 0.2
        probe 1
        steps 10
        emptyAll 0.1
        probe 0
        probe 1
        steps 15
        set 0 run loop
        steps 10
        clear 0
        probe 0
        steps 5
        set 2 idle loop
        add 2 jump once 0.3
        steps 5
        clearAll
        probe 1
        probe 2
        steps 5
    )ops",
                     R"log(
        0 note start 0 walk
        0 note start 1 shoot
        1 note event 0 walk footstep
        20 note interrupt 1 shoot
        20 note start 1 <empty>
        20 probe current <empty> trackTime=0 delay=0 mixTime=0 mixDuration=0.3 trackLast=-1 animationLast=-1 animationTime=0 trackComplete=0 interruptAlpha=1 totalAlpha=0
        20 probe from shoot trackTime=0.3333333333333333 delay=0 mixTime=0 mixDuration=0 trackLast=0.31666666666666665 animationLast=0.31666666666666665 animationTime=0.3333333333333333 trackComplete=0.6333000063896179 interruptAlpha=1 totalAlpha=0
        21 note complete 1 <empty>
        30 probe current walk trackTime=0.49999999999999994 delay=0 mixTime=0 mixDuration=0 trackLast=0.4833333333333333 animationLast=0.4833333333333333 animationTime=0.49999999999999994 trackComplete=1 interruptAlpha=1 totalAlpha=0
        30 probe next <empty> trackTime=0 delay=0.75 mixTime=0 mixDuration=0.25 trackLast=-1 animationLast=-1 animationTime=0 trackComplete=0 interruptAlpha=1 totalAlpha=0
        31 note event 0 walk footstep
        38 note complete 1 shoot
        39 note end 1 shoot
        39 note dispose 1 shoot
        40 note end 1 <empty>
        40 note dispose 1 <empty>
        45 note start 1 aim
        45 probe current aim trackTime=0 delay=0 mixTime=0 mixDuration=0.2 trackLast=-1 animationLast=-1 animationTime=0 trackComplete=0 interruptAlpha=1 totalAlpha=0
        46 note interrupt 0 walk
        46 note start 0 <empty>
        46 note complete 0 <empty>
        46 note complete 1 aim
        47 note complete 1 aim
        48 note complete 1 aim
        49 note complete 1 aim
        50 note complete 1 aim
        51 note complete 1 aim
        52 note complete 1 aim
        53 note complete 1 aim
        54 note complete 1 aim
        55 note complete 1 aim
        55 note interrupt 0 <empty>
        55 note start 0 <empty>
        55 note interrupt 1 aim
        55 note start 1 <empty>
        55 probe current <empty> trackTime=0 delay=0 mixTime=0 mixDuration=0.1 trackLast=-1 animationLast=-1 animationTime=0 trackComplete=0 interruptAlpha=0.6666666666666666 totalAlpha=0
        55 probe from <empty> trackTime=0.16666666666666732 delay=0 mixTime=0.16666666666666666 mixDuration=0.25 trackLast=0.15000000000000066 animationLast=0 animationTime=0 trackComplete=0.16666666666666732 interruptAlpha=1 totalAlpha=0
        55 probe from walk trackTime=0.9166666666666679 delay=0 mixTime=0 mixDuration=0 trackLast=0.9000000000000011 animationLast=0.9000000000000011 animationTime=0.9166666666666679 trackComplete=1 interruptAlpha=1 totalAlpha=13.000000000000005
        55 probe current <empty> trackTime=0 delay=0 mixTime=0 mixDuration=0.1 trackLast=-1 animationLast=-1 animationTime=0 trackComplete=0 interruptAlpha=1 totalAlpha=0
        55 probe from aim trackTime=0.16666666666666666 delay=0 mixTime=0 mixDuration=0.2 trackLast=0.15 animationLast=0 animationTime=0 trackComplete=0.16666666666666666 interruptAlpha=1 totalAlpha=0
        56 note complete 0 <empty>
        56 note complete 1 aim
        56 note complete 1 <empty>
        57 note complete 1 aim
        58 note complete 1 aim
        59 note complete 1 aim
        60 note complete 0 walk
        60 note complete 1 aim
        61 note complete 1 aim
        62 note end 0 walk
        62 note dispose 0 walk
        62 note complete 1 aim
        63 note end 0 <empty>
        63 note dispose 0 <empty>
        63 note end 1 aim
        63 note dispose 1 aim
        64 note end 0 <empty>
        64 note dispose 0 <empty>
        64 note end 1 <empty>
        64 note dispose 1 <empty>
        70 note start 0 run
        80 note end 0 run
        80 note dispose 0 run
        80 probe 0 none
        85 note start 2 idle
        90 note end 2 idle
        90 note dispose 2 idle
        90 note dispose 2 jump
        90 probe 1 none
        90 probe 2 none
    )log");
}

// Setting a track twice before apply: the first entry is interrupted, ended and disposed; its queue disposed.
TEST(AnimationStateOracle, an_entry_never_applied_is_replaced_instead_of_mixed) {
    SPINEGPU_REQUIRE_EXAMPLES();
    play_and_compare(R"ops(
        mix 0.25
        set 0 walk loop
        add 0 jump once 1
        set 0 run loop
        probe 0
        steps 1
        set 0 idle loop
        probe 0
        set 0 walk loop
        probe 0
        steps 2
        probe 0
    )ops",
                     R"log(
        0 note start 0 walk
        0 note interrupt 0 walk
        0 note end 0 walk
        0 note dispose 0 walk
        0 note dispose 0 jump
        0 note start 0 run
        0 probe current run trackTime=0 delay=0 mixTime=0 mixDuration=0 trackLast=-1 animationLast=-1 animationTime=0 trackComplete=0.666700005531311 interruptAlpha=1 totalAlpha=0
        1 note interrupt 0 run
        1 note start 0 idle
        1 probe current idle trackTime=0 delay=0 mixTime=0 mixDuration=0.25 trackLast=-1 animationLast=-1 animationTime=0 trackComplete=1.666700005531311 interruptAlpha=1 totalAlpha=0
        1 probe from run trackTime=0.016666666666666666 delay=0 mixTime=0 mixDuration=0 trackLast=-1 animationLast=-1 animationTime=0.016666666666666666 trackComplete=0.666700005531311 interruptAlpha=1 totalAlpha=0
        1 note interrupt 0 idle
        1 note end 0 idle
        1 note dispose 0 idle
        1 note start 0 walk
        1 probe current walk trackTime=0 delay=0 mixTime=0 mixDuration=0.25 trackLast=-1 animationLast=-1 animationTime=0 trackComplete=1 interruptAlpha=1 totalAlpha=0
        1 probe from run trackTime=0.016666666666666666 delay=0 mixTime=0 mixDuration=0 trackLast=-1 animationLast=-1 animationTime=0.016666666666666666 trackComplete=0.666700005531311 interruptAlpha=1 totalAlpha=0
        2 note event 0 walk footstep
        3 probe current walk trackTime=0.03333333333333333 delay=0 mixTime=0.03333333333333333 mixDuration=0.25 trackLast=0.016666666666666666 animationLast=0.016666666666666666 animationTime=0.03333333333333333 trackComplete=1 interruptAlpha=1 totalAlpha=0
        3 probe from run trackTime=0.05 delay=0 mixTime=0 mixDuration=0 trackLast=0.03333333333333333 animationLast=0.03333333333333333 animationTime=0.05 trackComplete=0.666700005531311 interruptAlpha=1 totalAlpha=38.06666666666667
    )log");
}

// Events before and after a loop's complete, large steps, eventThreshold while mixing out.
TEST(AnimationStateOracle, events_and_completes_come_in_the_official_order) {
    SPINEGPU_REQUIRE_EXAMPLES();
    play_and_compare(R"ops(
        set 0 run loop
        steps 4 0.3
        set 1 walk loop
        field eventThreshold 0.9
        steps 3 0.3
        set 1 idle loop
        field mixDuration 0.5
        steps 30
        probe 1
    )ops",
                     R"log(
        0 note start 0 run
        1 note event 0 run footstep
        2 note event 0 run footstep
        3 note complete 0 run
        4 note event 0 run footstep
        4 note start 1 walk
        5 note event 0 run footstep
        5 note complete 0 run
        5 note event 1 walk footstep
        6 note event 0 run footstep
        6 note event 1 walk footstep
        7 note event 0 run footstep
        7 note complete 0 run
        7 note interrupt 1 walk
        7 note start 1 idle
        13 note complete 1 walk
        13 note event 1 walk footstep
        16 note event 0 run footstep
        36 note event 0 run footstep
        37 probe current idle trackTime=0.49999999999999994 delay=0 mixTime=0.49999999999999994 mixDuration=0.5 trackLast=0.4833333333333333 animationLast=0.4833333333333333 animationTime=0.49999999999999994 trackComplete=1.666700005531311 interruptAlpha=1 totalAlpha=0
        37 probe from walk trackTime=1.3999999999999988 delay=0 mixTime=0 mixDuration=0 trackLast=1.3833333333333322 animationLast=0.3833333333333322 animationTime=0.3999999999999988 trackComplete=2 interruptAlpha=1 totalAlpha=4.3298697960381105e-15
    )log");
}

// trackEnd ends a track; animationStart/animationEnd bound the loop and drop events outside.
TEST(AnimationStateOracle, track_end_clears_the_track_and_animation_range_bounds_loops) {
    SPINEGPU_REQUIRE_EXAMPLES();
    play_and_compare(R"ops(
        set 0 jump once
        field trackEnd 1
        steps 70
        probe 0
        set 1 run loop
        field animationStart 0.2
        field animationEnd 0.5
        steps 40
        probe 1
    )ops",
                     R"log(
        0 note start 0 jump
        61 note end 0 jump
        61 note dispose 0 jump
        70 probe 0 none
        70 note start 1 run
        72 note event 1 run footstep
        88 note complete 1 run
        90 note event 1 run footstep
        106 note complete 1 run
        108 note event 1 run footstep
        110 probe current run trackTime=0.6666666666666671 delay=0 mixTime=0 mixDuration=0 trackLast=0.6500000000000004 animationLast=0.2500000000000004 animationTime=0.2666666666666671 trackComplete=0.8999999999999999 interruptAlpha=1 totalAlpha=0
    )log");
}

// TrackEntry.setMixDuration(mix, delay) with zero and negative delays.
TEST(AnimationStateOracle, set_mix_duration_with_delay_recomputes_the_delay) {
    SPINEGPU_REQUIRE_EXAMPLES();
    play_and_compare(R"ops(
        set 0 walk loop
        add 0 run loop 0
        mixWithDelay 0.5 0
        probe 0
        add 0 idle loop 0
        mixWithDelay 0.1 -0.2
        probe 0
        steps 100
        probe 0
    )ops",
                     R"log(
        0 note start 0 walk
        0 probe current walk trackTime=0 delay=0 mixTime=0 mixDuration=0 trackLast=-1 animationLast=-1 animationTime=0 trackComplete=1 interruptAlpha=1 totalAlpha=0
        0 probe next run trackTime=0 delay=0.5 mixTime=0 mixDuration=0.5 trackLast=-1 animationLast=-1 animationTime=0 trackComplete=0.666700005531311 interruptAlpha=1 totalAlpha=0
        0 probe current walk trackTime=0 delay=0 mixTime=0 mixDuration=0 trackLast=-1 animationLast=-1 animationTime=0 trackComplete=1 interruptAlpha=1 totalAlpha=0
        0 probe next run trackTime=0 delay=0.5 mixTime=0 mixDuration=0.5 trackLast=-1 animationLast=-1 animationTime=0 trackComplete=0.666700005531311 interruptAlpha=1 totalAlpha=0
        0 probe next idle trackTime=0 delay=0.366700005531311 mixTime=0 mixDuration=0.1 trackLast=-1 animationLast=-1 animationTime=0 trackComplete=1.666700005531311 interruptAlpha=1 totalAlpha=0
        1 note event 0 walk footstep
        31 note event 0 walk footstep
        32 note interrupt 0 walk
        32 note start 0 run
        44 note event 0 run footstep
        54 note interrupt 0 run
        54 note start 0 idle
        61 note end 0 run
        61 note dispose 0 run
        61 note complete 0 walk
        62 note end 0 walk
        62 note dispose 0 walk
        100 probe current idle trackTime=0.7999666611353563 delay=0 mixTime=0.11666666666666665 mixDuration=0.1 trackLast=0.7832999944686896 animationLast=0.7832999944686896 animationTime=0.7999666611353563 trackComplete=1.666700005531311 interruptAlpha=1 totalAlpha=0
    )log");
}

}  // namespace
}  // namespace spinegpu
