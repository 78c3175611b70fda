# Shared by the offline image builds (tools/docker/build-agent-image.sh, deploy/container/build-server-image.sh);
# sourced, never run. Both import a rootfs with `docker import` and skip the import when the image already
# carries the rootfs's content hash in its label.

# rootfs_hash ROOTFS FIND_FORMAT SCRIPT...: a digest of every path's metadata (FIND_FORMAT, a find -printf
# format), every regular file's bytes, and the given build scripts.
rootfs_hash() {
  local rootfs=$1 format=$2
  shift 2
  {
    (cd "$rootfs" && find . -printf "$format" | LC_ALL=C sort)
    (cd "$rootfs" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum)
    cat "$@" | sha256sum
  } | sha256sum | cut -c1-32
}

# image_has_hash IMAGE LABEL HASH: true when IMAGE exists and its LABEL is HASH.
image_has_hash() {
  [ "$(docker image inspect -f "{{index .Config.Labels \"$2\"}}" "$1" 2>/dev/null || true)" = "$3" ]
}
