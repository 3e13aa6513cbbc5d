#!/usr/bin/env bash
# The command line's own answers: help and version on stdout with exit code 0 (each command's every option with help
# COMMAND or COMMAND --help, where --help is not an option's value; options the work would ignore draw a warning),
# and usage errors with exit code 2 for a flag given twice, a flag's value left out before the next option, numbers
# not in plain decimal, the demo's bounds, --width without --height, a flag a scene makes meaningless, a --dt past an
# hour, counts past their range (naming it), a camera past its range, an image that is not a .png, and the window's
# options out of range or together where they cannot be; a directory given as a file is a read error (exit code 1)
# that says so, and so is standard output that cannot be written.
# usage: command_line_help_and_usage_errors.sh SPINEGPU EXAMPLES_DIR BUILD_DIR
set -uo pipefail
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

for args in "help" "--help" "version --help"; do
  out=$("$bin" $args 2>/dev/null) || fail "spinegpu $args: exit code $?"
  [[ $out == *"usage: spinegpu COMMAND"* && $out == *"render --scene"* ]] || fail "spinegpu $args printed: $out"
done
# A command's help lists every option the README gives it: `help COMMAND`, `COMMAND --help` and `COMMAND -h` alike.
expect_help() {
  local command=$1 option out
  shift
  for args in "help $command" "$command --help" "$command --skeleton x -h"; do
    out=$("$bin" $args 2>/dev/null) || fail "spinegpu $args: exit code $?"
    for option in "$@"; do
      [[ $out == *"$option"* ]] || fail "spinegpu $args lacks $option: $out"
    done
  done
}
expect_help info --atlas --json
expect_help pose --skeleton --atlas --animation --schedule --skin --steps --dt --every
expect_help render --skeleton --atlas --animation --schedule --skin --steps --dt --width --height --camera --fit \
  --background --path --device --validation --out "--scene SCENE.json" --frames
expect_help bench --skeleton --atlas --characters --frames --threads --paths --backend --width --height --device \
  --character-pixels --skin --update-in-pack --json
expect_help demo --out --characters --frames --device --validation --export
expect_help view --scene --characters --path --width --height --frames --hold --no-vsync --device --validation
# "-h" as an option's value is that value, not a help request (the file named here does not exist).
err=$("$bin" info "$tmp/none.json" --atlas -h 2>&1 >/dev/null); [ $? -eq 1 ] && [[ $err == *none.json* ]] ||
  fail "info --atlas -h: $err"
out=$("$bin" pose --skin -h --help) || fail "pose --skin -h --help: exit code $?"
[[ $out == *--every* ]] || fail "pose --skin -h --help printed: $out"
err=$("$bin" help nosuch 2>&1 >/dev/null); [ $? -eq 2 ] && [[ $err == *'unknown command "nosuch"'* ]] ||
  fail "help nosuch: $err"
err=$("$bin" version --bogus 2>&1 >/dev/null); [ $? -eq 2 ] && [[ $err == *'unexpected argument "--bogus"'* ]] ||
  fail "version --bogus: $err"
out=$("$bin" --version) || fail "--version: exit code $?"
[[ $out =~ ^spinegpu\ [0-9]+\.[0-9]+\.[0-9]+$ ]] || fail "--version printed: $out"

# expect_usage EXPECTED ARGS...: exit code 2 and EXPECTED on stderr.
expect_usage() {
  local expected=$1 err code
  shift
  err=$("$bin" "$@" 2>&1 >/dev/null)
  code=$?
  [ $code -eq 2 ] || fail "$*: exit code $code, expected 2 ($err)"
  [[ $err == *"$expected"* ]] || fail "$*: error lacks \"$expected\": $err"
}
"$bin" demo --export "$tmp/rig" >/dev/null 2>&1 || fail "demo --export failed"
rig=$tmp/rig/spinegpu-demo.json atlas=$tmp/rig/spinegpu-demo.atlas
# A word no command takes is named, quoted, by every command.
for command in pose render bench demo view; do
  expect_usage 'unexpected argument "stray word"' "$command" "stray word"
done
expect_usage 'unexpected argument "stray word"' info "$rig" "stray word"
expect_usage 'expected one skeleton file' info
expect_usage "--animation is given twice" pose --skeleton "$rig" --atlas "$atlas" --animation a --animation b
# An option where a value should be is the value left out, not taken for it (nor the option's own value stray).
expect_usage "--animation needs a value (found the option --steps in its place)" pose --skeleton "$rig" \
  --atlas "$atlas" --animation --steps 3
expect_usage "--skin needs a value (found the option --json in its place)" bench --skeleton "$rig" --atlas "$atlas" \
  --characters 1 --skin --json
expect_usage "--width is for one skeleton" render --scene "$tmp/scene.json" --out "$tmp/out" --width 64
expect_usage "--dt needs a number of seconds from 0 to 3600" pose --skeleton "$rig" --atlas "$atlas" --animation a \
  --dt 4000
expect_usage "--frames needs a whole number from 1 to 100000000" view --frames 0
expect_usage "--characters is for the demo crowd" view --scene "$tmp/scene.json" --characters 5
expect_usage "--width and --height go together" view --width 640
expect_usage "--width and --height need whole numbers from 1 to 16384" view --width 640 --height 0
expect_usage "--width and --height go together" render --skeleton "$rig" --atlas "$atlas" --animation a --width 8 \
  --fit --out "$tmp/x.png"
expect_usage "--width and --height are required" render --skeleton "$rig" --atlas "$atlas" --animation a --fit \
  --out "$tmp/x.png"
expect_usage "--path is gpu, cpu, gpu-vertex or gpu-tiles" view --path raster
# Counts past their range say the range (a --steps past 2^32 was converted before it was checked).
for steps in 1e20 4294967296 -1 2.5; do
  expect_usage "--steps needs a whole number from 0 to 4294967295" pose --skeleton "$rig" --atlas "$atlas" \
    --animation a --steps "$steps"
done
expect_usage "--every needs a whole number from 1 to 4294967295" pose --skeleton "$rig" --atlas "$atlas" \
  --animation a --every 0
expect_usage "--steps needs a whole number from 0 to 4294967295" render --skeleton "$rig" --atlas "$atlas" \
  --animation a --steps 4294967296 --width 8 --height 8 --fit --out "$tmp/x.png"
expect_usage "--characters needs whole numbers from 1 to 10000000" bench --skeleton "$rig" --atlas "$atlas" \
  --characters 100000000
# Numbers are decimal digits: no hexadecimal, no fraction, no exponent where a whole number is asked for.
for steps in 0x10 5.0 1e3 " 5" +5; do
  expect_usage "--steps needs a whole number from 0 to 4294967295" render --skeleton "$rig" --atlas "$atlas" \
    --animation a --steps "$steps" --width 8 --height 8 --fit --out "$tmp/x.png"
done
expect_usage "--dt needs a number of seconds" pose --skeleton "$rig" --atlas "$atlas" --animation a --dt 0x1p-4
# The demo's counts are bounded, and the bound is in the message; --export takes no crowd options.
expect_usage "--characters needs a whole number from 1 to 100000" demo --characters 100001 --out "$tmp/demo"
expect_usage "--frames needs a whole number from 1 to 10000" demo --frames 0 --out "$tmp/demo"
expect_usage "--characters draws a crowd; --export only writes the rig" demo --export "$tmp/rig2" --characters 5
# An empty folder path is refused (it wrote into the current folder and printed paths from the root).
expect_usage "--out needs a folder's path, not an empty one" demo --out ""
expect_usage "--export needs a folder's path, not an empty one" demo --export ""
# bench checks its numbers before loading anything: a usage error, not the missing file's.
expect_usage "--walk needs an integer from 0 to 100000" bench --skeleton "$tmp/missing.skel" --atlas "$atlas" \
  --characters 10 --paths gpu --walk abc
expect_usage "--offscreen needs an integer from 0 to 10000000" bench --skeleton "$tmp/missing.skel" \
  --atlas "$atlas" --characters 10 --paths gpu --offscreen -1
# Options that the asked-for work would ignore are refused.
expect_usage "--width and --height go together" bench --skeleton "$rig" --atlas "$atlas" --characters 1 \
  --paths gpu --width 640
# The renderer's options with the update path alone are allowed by the contract, and ignored with a warning.
for flag in "--width 640 --height 480" "--device x" "--character-pixels 32" "--update-in-pack"; do
  err=$("$bin" bench --skeleton "$rig" --atlas "$atlas" --characters 1 --frames 1 $flag 2>&1 >/dev/null) ||
    fail "bench $flag with --paths update: exit code $? ($err)"
  [[ $err == *"warning: ${flag%% *} is ignored"* ]] || fail "bench $flag with --paths update: no warning ($err)"
done
# A pose dump that would print nothing is allowed (the contract's grammar) and warned of.
for flag in "--steps 0" "--steps 3 --every 4"; do
  out=$("$bin" pose --skeleton "$rig" --atlas "$atlas" --animation walk $flag 2>"$tmp/err") ||
    fail "pose $flag: exit code $? ($(cat "$tmp/err"))"
  [ -z "$out" ] && grep -q "warning: .*prints nothing\|warning: nothing is printed" "$tmp/err" ||
    fail "pose $flag: printed \"$out\", warned: $(cat "$tmp/err")"
done
out=$("$bin" pose --skeleton "$rig" --atlas "$atlas" --animation walk --steps 4 --every 4 2>"$tmp/err")
[ -n "$out" ] && [ ! -s "$tmp/err" ] || fail "pose --steps 4 --every 4: printed \"$out\", said: $(cat "$tmp/err")"
# "-0" is read as 0: no time of -0 in the dump.
out=$("$bin" pose --skeleton "$rig" --atlas "$atlas" --animation walk --steps 1 --dt -0 2>&1)
[[ $out == '{"frame": 1, "time": 0,'* ]] || fail "pose --dt -0: ${out:0:60}"
# Help for a name that is not a command is an error; help for a command without options is the overview.
err=$("$bin" nosuch --help 2>&1 >/dev/null); [ $? -eq 2 ] && [[ $err == *'unknown command "nosuch"'* ]] ||
  fail "nosuch --help: $err"
for name in version help; do
  out=$("$bin" help $name) && [[ $out == *"usage: spinegpu COMMAND"* ]] || fail "help $name: $out"
done
expect_usage "--frames is for --scene" render --skeleton "$rig" --atlas "$atlas" --animation a --frames 3 --width 8 \
  --height 8 --fit --out "$tmp/x.png"
expect_usage "--out names a .png file" render --skeleton "$rig" --atlas "$atlas" --animation a --width 8 --height 8 \
  --fit --out "$tmp/x.jpg"
expect_usage "--out needs a folder's path, not an empty one" render --scene "$tmp/none.json" --out ""
expect_usage "--out names the folder a scene's frames go to, not a .png file" render --scene "$tmp/none.json" \
  --out "$tmp/frames.png"
# The extension in any case: .Png is a PNG's name (written), and not a scene's folder.
"$bin" render --skeleton "$rig" --atlas "$atlas" --animation idle --width 8 --height 8 --fit --out "$tmp/x.Png" \
  >/dev/null 2>&1 && [ -f "$tmp/x.Png" ] || fail "render --out x.Png wrote nothing"
expect_usage "--out names the folder a scene's frames go to, not a .png file" render --scene "$tmp/none.json" \
  --out "$tmp/frames.pNG"
err=$("$bin" info "" 2>&1 >/dev/null); [ $? -eq 1 ] && [[ $err == *'"": cannot open: the path is empty'* ]] ||
  fail "info \"\": $err"
# A camera within float range and the close-ups' needs: 1e39 overflowed a float and drew nothing, with exit code 0.
for camera in 1e39,0,0 2e7,0,0 1,2e9,0 1,0,-2e9 0,0,0 1,2,1000000001 10000001,0,0; do
  expect_usage "--camera needs SCALE,OX,OY: SCALE above 0 up to 1e7" render --skeleton "$rig" --atlas "$atlas" \
    --animation a --width 8 --height 8 --camera $camera --out "$tmp/x.png"
done

mkdir "$tmp/dir.json"
err=$("$bin" info "$tmp/dir.json" 2>&1 >/dev/null)
[ $? -eq 1 ] || fail "a directory as the skeleton: exit code not 1 ($err)"
[[ $err == *"dir.json"* && $err == *"directory"* ]] || fail "a directory as the skeleton: $err"

# Output that cannot be written (a full disk, a closed standard output) fails the command, saying so.
expect_output_lost() {  # ARGS...: the command's output, to a full disk and to a closed stdout
  local err
  if [ -w /dev/full ]; then
    err=$("$bin" "$@" 2>&1 >/dev/full)
    [ $? -eq 1 ] && [[ $err == *"could not write the standard output"* ]] || fail "$* >/dev/full: $err"
  fi
  err=$("$bin" "$@" 2>&1 >&-)
  [ $? -eq 1 ] && [[ $err == *"could not write the standard output"* ]] || fail "$* >&-: $err"
}
expect_output_lost version
expect_output_lost info "$rig" --json
expect_output_lost pose --skeleton "$rig" --atlas "$atlas" --animation walk --steps 200
echo ok
