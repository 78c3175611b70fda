#!/usr/bin/env bash
# Builds the docker agent image (default genswarms/agent:latest) OFFLINE, with `docker import` of a
# rootfs assembled from THIS machine's Debian packages (no registry, no pull): busybox-static (+ applet
# links, /bin/sh), nodejs and socat with the shared libraries ldd reports, ca-certificates'
# /etc/ssl/certs, a minimal /etc/passwd. The built-in agent (apps/agent/dist) is not copied in: the
# docker runner mounts the server's own build read-only at start, so image and server never disagree.
# Idempotent: skips the import when an image with the same content-hash label exists.
# Usage: tools/docker/build-agent-image.sh [image-tag]   (`genswarms image build [--tag T]` runs it)
set -euo pipefail
# shellcheck source=image-lib.sh
. "$(dirname "$0")/image-lib.sh"

IMAGE=${1:-genswarms/agent:latest}
LABEL=genswarms.content
die() { echo "build-agent-image: $*" >&2; exit 1; }
case $IMAGE in
  -* | *[!a-zA-Z0-9./:_-]*) die "invalid image tag: $IMAGE" ;;
esac

command -v docker >/dev/null || die "docker client not found"
docker info >/dev/null 2>&1 || die "no docker engine reachable"

BUSYBOX=""
for candidate in /bin/busybox /usr/bin/busybox; do
  [ -x "$candidate" ] || continue
  case $(ldd "$candidate" 2>&1 || true) in *'not a dynamic executable'*) BUSYBOX=$candidate; break ;; esac
done
[ -n "$BUSYBOX" ] || die "a static busybox is required (apt-get install busybox-static)"
NODE=$(command -v node) || die "node not found (apt-get install nodejs)"
SOCAT=$(command -v socat) || die "socat not found (apt-get install socat)"
[ -d /etc/ssl/certs ] || die "/etc/ssl/certs is missing (apt-get install ca-certificates)"
if command -v dpkg-query >/dev/null; then
  # Provenance, printed once: which Debian package each file of the image comes from.
  for f in "$BUSYBOX" "$(readlink -f "$NODE")" "$(readlink -f "$SOCAT")"; do
    echo "build-agent-image: $f from $(dpkg-query -S "$f" 2>/dev/null | cut -d: -f1 | head -n1 || echo 'no package')"
  done
fi

ROOTFS=$(mktemp -d /tmp/gs-agent-image.XXXXXX)
trap 'rm -rf "$ROOTFS"' EXIT
# mktemp makes it 0700, and tar keeps that as the image's `/`: agents run as a non-root uid (never 0).
chmod 0755 "$ROOTFS"

# Merged-/usr layout like the host, so every ldd path resolves inside the image.
mkdir -p "$ROOTFS"/usr/{bin,sbin,lib,lib64} "$ROOTFS"/{etc,root,workspace,skills,tmp,proc,dev,sys,run/genswarms}
ln -s usr/bin "$ROOTFS/bin"; ln -s usr/sbin "$ROOTFS/sbin"; ln -s usr/lib "$ROOTFS/lib"; ln -s usr/lib64 "$ROOTFS/lib64"
chmod 1777 "$ROOTFS/tmp"

copy_file() { # copy_file <host path> : content (symlinks dereferenced) at the same path in the rootfs
  mkdir -p "$(dirname "$ROOTFS$1")"
  cp -L "$1" "$ROOTFS$1"
}
copy_with_libs() { # copy_with_libs <binary> : the binary and every library ldd lists (plus the loader)
  copy_file "$1"
  ldd "$1" | awk '/=> \//{print $3; next} $1 ~ /^\//{print $1}' | sort -u | while read -r lib; do copy_file "$lib"; done
}

copy_with_libs "$(readlink -f "$NODE")"
[ "$(readlink -f "$NODE")" = /usr/bin/node ] || ln -sf "$(readlink -f "$NODE")" "$ROOTFS/usr/bin/node"
copy_with_libs "$(readlink -f "$SOCAT")"
# The glibc libraries the published coding clients' native binaries link against besides node's (Claude Code
# needs librt): they run headless in the container from the clients dir the runner binds (docs/clients.md).
LIBC=$(ldd "$(readlink -f "$NODE")" | awk '$1 == "libc.so.6" {print $3}')
# Claude Code's Bash tool refuses any shell but bash or zsh ("No suitable shell found"): bash, with its libraries.
BASH_BIN=$(command -v bash) || die "bash not found"
copy_with_libs "$(readlink -f "$BASH_BIN")"
for lib in librt.so.1 libpthread.so.0 libdl.so.2 libm.so.6; do
  if [ -n "$LIBC" ] && [ -e "$(dirname "$LIBC")/$lib" ]; then copy_file "$(dirname "$LIBC")/$lib"; fi
done
[ "$(readlink -f "$SOCAT")" = /usr/bin/socat ] || ln -sf "$(readlink -f "$SOCAT")" "$ROOTFS/usr/bin/socat"
cp "$BUSYBOX" "$ROOTFS/usr/bin/busybox"
for applet in $("$BUSYBOX" --list); do
  [ -e "$ROOTFS/usr/bin/$applet" ] || ln -s busybox "$ROOTFS/usr/bin/$applet"
done
mkdir -p "$ROOTFS/etc/ssl"
cp -rL /etc/ssl/certs "$ROOTFS/etc/ssl/certs"
[ -f /etc/ssl/openssl.cnf ] && cp /etc/ssl/openssl.cnf "$ROOTFS/etc/ssl/openssl.cnf"
printf 'root:x:0:0:root:/root:/bin/sh\nagent:x:1000:1000:agent:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n' >"$ROOTFS/etc/passwd"
printf 'root:x:0:\nagent:x:1000:\nnogroup:x:65534:\n' >"$ROOTFS/etc/group"
: >"$ROOTFS/etc/hosts"

# Content hash: paths, types, link targets, modes, file digests, and the build scripts.
HASH=$(rootfs_hash "$ROOTFS" '%p %y %l %m\n' "$0" "$(dirname "$0")/image-lib.sh")
if image_has_hash "$IMAGE" "$LABEL" "$HASH"; then
  echo "build-agent-image: $IMAGE is up to date ($HASH)"
  exit 0
fi

OLD_ID=$(docker image inspect -f '{{.Id}}' "$IMAGE" 2>/dev/null || true)
tar -C "$ROOTFS" --numeric-owner --owner=0 --group=0 -cf - . |
  docker import \
    --change "LABEL $LABEL=$HASH" \
    --change 'ENV PATH=/usr/local/bin:/usr/bin:/bin' \
    --change 'WORKDIR /workspace' \
    - "$IMAGE" >/dev/null
# The previous build is now untagged; drop it unless a container still uses it.
[ -z "$OLD_ID" ] || docker image rm "$OLD_ID" >/dev/null 2>&1 || true
echo "build-agent-image: built $IMAGE ($HASH)"
