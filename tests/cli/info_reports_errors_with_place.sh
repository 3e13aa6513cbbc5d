#!/usr/bin/env bash
# Errors from `spinegpu info` go to stderr with a non-zero exit code and name the file and the place in it.
# usage: info_reports_errors_with_place.sh SPINEGPU EXAMPLES_DIR BUILD_DIR
set -uo pipefail
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# A missing file.
if err=$("$bin" info "$tmp/missing.json" 2>&1 >/dev/null); then fail "missing file accepted"; fi
[[ $err == *"$tmp/missing.json"* ]] || fail "missing-file error does not name the file: $err"

# A JSON export with an unknown parent bone: the error names the file and the JSON path.
printf '{"skeleton": {"spine": "4.2.22"}, "bones": [{"name": "root"}, {"name": "a", "parent": "nope"}]}' \
  > "$tmp/bad.json"
if err=$("$bin" info "$tmp/bad.json" 2>&1 >/dev/null); then fail "unknown parent accepted"; fi
[[ $err == *"bad.json"* && $err == *"/bones/1"* ]] || fail "unknown-parent error lacks file or place: $err"

# An old version is rejected with the version found.
printf '{"skeleton": {"spine": "3.8.99"}, "bones": [{"name": "root"}]}' > "$tmp/old.json"
if err=$("$bin" info "$tmp/old.json" 2>&1 >/dev/null); then fail "version 3.8 accepted"; fi
[[ $err == *"3.8.99"* ]] || fail "version error does not name the version: $err"

# A truncated binary (hash, then the version string "4.2.22", then nothing) names a byte offset.
printf '\x01\x02\x03\x04\x05\x06\x07\x08\x07\x34\x2e\x32\x2e\x32\x32' > "$tmp/garbage.skel"
if err=$("$bin" info "$tmp/garbage.skel" 2>&1 >/dev/null); then fail "garbage binary accepted"; fi
[[ $err == *"garbage.skel"* && $err == *"byte"* ]] || fail "binary error lacks file or byte offset: $err"

# A binary export whose hash begins with '{' (1 in 256 do) is read as binary, not as JSON.
ex=$2/raptor/raptor-pro.skel
if [ -f "$ex" ]; then
  { printf '{'; tail -c +2 "$ex"; } > "$tmp/brace.skel"
  out=$("$bin" info "$tmp/brace.skel" 2>&1) || fail "a binary export starting with '{' is refused: $out"
  [[ $out == *"bones"* ]] || fail "brace.skel: no description: $out"
fi

# With --atlas, page images that render would refuse are named in a warning (info still describes the skeleton):
# a missing one, one that is not a PNG, one of another size than the atlas says. A page the atlas leaves unsized
# takes its image's size.
sb=$2/spineboy
if [ -f "$sb/spineboy-pro.skel" ]; then
  mkdir "$tmp/pages"
  cp "$sb/spineboy-pro.skel" "$sb/spineboy.atlas" "$tmp/pages/"
  check_page() {  # what the page image is, the words the warning must hold
    out=$(cd "$tmp/pages" && "$bin" info spineboy-pro.skel --atlas spineboy.atlas 2>&1 >/dev/null) ||
      fail "$1: info failed: $out"
    [[ $out == *'warning: spineboy.atlas: page "spineboy.png": '*"$2"* ]] || fail "$1: no warning naming it: $out"
  }
  check_page "a missing page" "cannot open"
  printf 'not a png' > "$tmp/pages/spineboy.png"
  check_page "a page that is no PNG" "cannot decode"
  cp "$sb/spineboy-run.png" "$tmp/pages/spineboy.png"
  check_page "a page of another size" "is 1177x685 but the atlas says 1024x256"
  cp "$sb/spineboy.png" "$tmp/pages/spineboy.png"
  out=$(cd "$tmp/pages" && "$bin" info spineboy-pro.skel --atlas spineboy.atlas 2>&1 >/dev/null)
  [ -z "$out" ] || fail "the right page warned: $out"
  sed -i '/^[[:space:]]*size:/d' "$tmp/pages/spineboy.atlas"
  ! grep -q 'size:' "$tmp/pages/spineboy.atlas" || fail "the atlas still gives its page's size"
  out=$(cd "$tmp/pages" && "$bin" info spineboy-pro.skel --atlas spineboy.atlas --json) || fail "unsized page: $out"
  [[ $out == *'"pages": [{"name": "spineboy.png", "width": 1024, "height": 256,'* ]] ||
    fail "an unsized page does not take its image's size: ${out##*\"pages\"}"
fi

# An empty or blank file (JSON or binary) says so, not that a binary header ended early.
printf '' > "$tmp/empty.json"
printf ' \n\t\n' > "$tmp/blank.skel"
for f in empty.json blank.skel; do
  if err=$("$bin" info "$tmp/$f" 2>&1 >/dev/null); then fail "$f accepted"; fi
  [[ $err == *"$f: the file is empty"* ]] || fail "$f: error does not say the file is empty: $err"
done

# Usage errors exit with 2.
"$bin" info >/dev/null 2>&1; [ $? -eq 2 ] || fail "missing argument does not exit 2"
"$bin" info a.json --bogus >/dev/null 2>&1; [ $? -eq 2 ] || fail "unknown option does not exit 2"
echo ok
