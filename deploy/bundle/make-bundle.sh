#!/usr/bin/env bash
# Lays out a runnable server install in <dest> from THIS checkout (already built: `npx nx run-many -t build`):
#   <dest>/node_modules/<runtime dependencies>       every package `npm ls --omit=dev` lists, native ones pruned
#                                                    to their compiled .node files (no sources, no toolchain needed)
#   <dest>/node_modules/@genswarms/<pkg>/            package.json + dist/ (+ build/Release/*.node for procctl)
# The server is then `node <dest>/node_modules/@genswarms/server/dist/main.js`. No network: only files on this machine.
# Used by deploy/container/build-server-image.sh and by the systemd install in docs/deploy.md.
# Usage: deploy/bundle/make-bundle.sh <dest>
set -euo pipefail

DEST=${1:?usage: make-bundle.sh <dest>}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
die() { echo "make-bundle: $*" >&2; exit 1; }

[ -f "$ROOT/apps/server/dist/main.js" ] || die "apps/server is not built (npx nx run-many -t build)"
[ -f "$ROOT/apps/agent/dist/main.js" ] || die "apps/agent is not built (npx nx run-many -t build)"
[ ! -e "$DEST/node_modules" ] || die "$DEST/node_modules exists already"
mkdir -p "$DEST/node_modules/@genswarms"

copy_workspace() { # copy_workspace <real dir> <package name>: what a published package would hold
  local src=$1 to=$DEST/node_modules/$2
  [ -d "$src/dist" ] || return 0 # a workspace without a build output (tools) is not part of a server install
  mkdir -p "$to"
  cp "$src/package.json" "$to/"
  cp -a "$src/dist" "$to/dist"
  find "$to/dist" \( -name '*.tsbuildinfo' -o -name '*.map' \) -delete
  for f in README.md LICENSE; do [ ! -f "$src/$f" ] || cp "$src/$f" "$to/"; done
  if [ -d "$src/build/Release" ]; then
    mkdir -p "$to/build/Release"
    find "$src/build/Release" -maxdepth 1 -name '*.node' -exec cp {} "$to/build/Release/" \;
  fi
}

prune_native() { # prune_native <dir>: a compiled addon keeps its JS and its .node files only
  local dir=$1
  [ -f "$dir/binding.gyp" ] || return 0
  rm -rf "$dir"/{deps,src,third_party,node-addon-api,scripts}
  if [ -d "$dir/build" ]; then
    local keep
    keep=$(mktemp -d)
    find "$dir/build/Release" -maxdepth 1 -name '*.node' ! -name 'test_*' -exec cp {} "$keep/" \; 2>/dev/null || true
    rm -rf "$dir/build"
    mkdir -p "$dir/build/Release"
    cp "$keep"/*.node "$dir/build/Release/" 2>/dev/null || true
    rm -rf "$keep"
  fi
  # prebuilt binaries for other systems are dead weight here
  if [ -d "$dir/prebuilds" ]; then find "$dir/prebuilds" -mindepth 1 -maxdepth 1 ! -name "linux-$(uname -m | sed 's/x86_64/x64/;s/aarch64/arm64/')" -exec rm -rf {} +; fi
}

# --omit=dev: the runtime closure of the root and of every workspace, resolved by npm from the lock file.
(cd "$ROOT" && npm ls --omit=dev --all --parseable 2>/dev/null) | while read -r path; do
  rel=${path#"$ROOT"/node_modules/}
  [ "$rel" != "$path" ] || continue # the root itself
  case $rel in
    */node_modules/*) continue ;; # nested: copied with its parent
    @genswarms/*) copy_workspace "$(readlink -f "$path")" "$rel" ;;
    *)
      mkdir -p "$(dirname "$DEST/node_modules/$rel")"
      cp -a "$path" "$DEST/node_modules/$rel"
      prune_native "$DEST/node_modules/$rel"
      ;;
  esac
done
printf '{ "name": "genswarms-install", "private": true }\n' >"$DEST/package.json"
echo "make-bundle: $(du -sh "$DEST" | cut -f1) in $DEST"
