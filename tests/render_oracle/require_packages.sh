# Sourced by the command-line tests that run the official renderer: require_render_oracle BUILD_DIR installs the
# pinned packages of tests/render_oracle once (under a lock, as other tests may be installing them at the same time),
# and exits the test with 77 (skipped) when Node or the registry is missing.
require_render_oracle() {
  local here build=$1
  here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
  command -v node >/dev/null || { echo "skipped: node is not installed"; exit 77; }
  [ -d "$here/node_modules/@esotericsoftware/spine-canvaskit" ] && return 0
  if command -v flock >/dev/null 2>&1; then exec 9>"$build/oracle-npm.lock"; flock 9; fi
  [ -d "$here/node_modules/@esotericsoftware/spine-canvaskit" ] ||
    npm ci --prefix "$here" --no-audit --no-fund --loglevel=error >/dev/null 2>&1 ||
    { echo "skipped: npm ci in $here failed (no registry access?)"; exit 77; }
  exec 9>&-
}
