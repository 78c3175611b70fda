#!/usr/bin/env bash
# Builds the server image OFFLINE (no registry pull): `docker import` of a rootfs composed from THIS
# machine's files — Debian's node with the shared libraries ldd lists (for node and every compiled
# addon), /etc/ssl/certs, a minimal /etc/passwd — and the built server laid out by
# deploy/bundle/make-bundle.sh under /opt/genswarms. The server runs as uid 10001 (never root), state
# in the volume /var/lib/genswarms (0700, uid 10001), bound to 0.0.0.0:4000 inside the container.
# Idempotent: skips the import when an image with the same content-hash label exists. Needs root (the
# rootfs keeps uid 10001 as owner of the state directory) and a reachable docker engine.
# Usage: deploy/container/build-server-image.sh [image-tag]
set -euo pipefail

IMAGE=${1:-genswarms/server:latest}
LABEL=genswarms.content
SERVER_UID=10001
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../../tools/docker/image-lib.sh
. "$ROOT/tools/docker/image-lib.sh"
die() { echo "build-server-image: $*" >&2; exit 1; }
case $IMAGE in
  -* | *[!a-zA-Z0-9./:_-]*) die "invalid image tag: $IMAGE" ;;
esac

[ "$(id -u)" = 0 ] || die "run as root (the image's state directory belongs to uid $SERVER_UID)"
command -v docker >/dev/null || die "docker client not found"
docker info >/dev/null 2>&1 || die "no docker engine reachable"
NODE=$(readlink -f "$(command -v node)") || die "node not found"

ROOTFS=$(mktemp -d /tmp/gs-server-image.XXXXXX)
trap 'rm -rf "$ROOTFS"' EXIT
chmod 0755 "$ROOTFS" # mktemp's 0700 would become the image's `/`

# Merged-/usr layout like the host, so every ldd path resolves inside the image.
mkdir -p "$ROOTFS"/usr/{bin,lib,lib64} "$ROOTFS"/{etc/ssl,etc/genswarms/swarms,opt,tmp,proc,dev,sys,run/secrets,var/lib/genswarms}
ln -s usr/bin "$ROOTFS/bin"; ln -s usr/lib "$ROOTFS/lib"; ln -s usr/lib64 "$ROOTFS/lib64"
chmod 1777 "$ROOTFS/tmp"

copy_file() { mkdir -p "$(dirname "$ROOTFS$1")"; cp -L "$1" "$ROOTFS$1"; }
copy_libs_of() { # every library ldd lists for $1 (plus the loader)
  ldd "$1" | awk '/=> \//{print $3; next} $1 ~ /^\//{print $1}' | sort -u | while read -r lib; do
    [ -e "$ROOTFS$lib" ] || copy_file "$lib"
  done
}

copy_file "$NODE"
[ "$NODE" = /usr/bin/node ] || ln -sf "$NODE" "$ROOTFS/usr/bin/node"
copy_libs_of "$NODE"
"$ROOT/deploy/bundle/make-bundle.sh" "$ROOTFS/opt/genswarms" >/dev/null
find "$ROOTFS/opt/genswarms" -name '*.node' -print0 | while IFS= read -r -d '' addon; do copy_libs_of "$addon"; done
cp -rL /etc/ssl/certs "$ROOTFS/etc/ssl/certs"
printf 'root:x:0:0:root:/root:/bin/false\ngenswarms:x:%s:%s:genswarms:/var/lib/genswarms:/bin/false\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n' \
  "$SERVER_UID" "$SERVER_UID" >"$ROOTFS/etc/passwd"
printf 'root:x:0:\ngenswarms:x:%s:\nnogroup:x:65534:\n' "$SERVER_UID" >"$ROOTFS/etc/group"
: >"$ROOTFS/etc/hosts"
chown "$SERVER_UID:$SERVER_UID" "$ROOTFS/var/lib/genswarms"
chmod 0700 "$ROOTFS/var/lib/genswarms"

# Content hash: paths, types, owners, link targets, modes, file digests, and the build scripts.
HASH=$(rootfs_hash "$ROOTFS" '%p %y %U %l %m\n' "$0" "$ROOT/tools/docker/image-lib.sh")
if image_has_hash "$IMAGE" "$LABEL" "$HASH"; then
  echo "build-server-image: $IMAGE is up to date ($HASH)"
  exit 0
fi

OLD_ID=$(docker image inspect -f '{{.Id}}' "$IMAGE" 2>/dev/null || true)
tar -C "$ROOTFS" --numeric-owner -cf - . |
  docker import \
    --change "LABEL $LABEL=$HASH" \
    --change 'ENV PATH=/usr/bin:/bin' \
    --change 'ENV GENSWARMS_HOME=/var/lib/genswarms' \
    --change 'ENV GENSWARMS_SWARM_CONFIG_DIR=/etc/genswarms/swarms' \
    --change 'ENV GENSWARMS_HTTP_IP=0.0.0.0' \
    --change 'ENV PORT=4000' \
    --change 'EXPOSE 4000' \
    --change 'VOLUME /var/lib/genswarms' \
    --change 'WORKDIR /var/lib/genswarms' \
    --change "USER $SERVER_UID:$SERVER_UID" \
    --change 'ENTRYPOINT ["/usr/bin/node", "/opt/genswarms/node_modules/@genswarms/server/dist/main.js"]' \
    - "$IMAGE" >/dev/null
[ -z "$OLD_ID" ] || docker image rm "$OLD_ID" >/dev/null 2>&1 || true
echo "build-server-image: built $IMAGE ($HASH)"
