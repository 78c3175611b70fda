#!/usr/bin/env bash
# Checks that bwrap still creates its namespaces (user, pid, net, ipc, uts, mount + a fresh /proc) under
# the sandbox genswarms.service sets up, emulated without systemd as PID 1: a private mount namespace
# whose root is a read-only copy of / (ProtectSystem=strict), private /dev (PrivateDevices) and /tmp
# (PrivateTmp), the old root dropped (pivot_root), then an
# unprivileged user with no_new_privs and an empty capability bounding set (NoNewPrivileges,
# CapabilityBoundingSet=). Extra arguments add what a directive would add, to show it breaks bwrap:
#   kernel-tunables   read-only /proc/sys, as ProtectKernelTunables=yes does
#   kernel-logs       /proc/kmsg masked, as ProtectKernelLogs=yes does
#   proc-invisible    /proc remounted with hidepid=invisible, as ProtectProc=invisible does
# Exit 0 when bwrap ran the command. Needs root, unshare, setpriv, chroot and bwrap.
# Usage: deploy/systemd/check-bwrap-sandbox.sh [kernel-tunables] [kernel-logs]
set -euo pipefail

if [ "${1:-}" != --inside ]; then
  [ "$(id -u)" = 0 ] || { echo "check-bwrap-sandbox: needs root" >&2; exit 2; }
  NEWROOT=$(mktemp -d /tmp/gs-unit-root.XXXXXX)
  trap 'rmdir "$NEWROOT" 2>/dev/null || true' EXIT
  unshare --mount --pid --fork --propagation private -- "$0" --inside "$NEWROOT" "$@"
  exit $?
fi

shift
NEWROOT=$1
shift
mount --rbind / "$NEWROOT"
mount -o remount,bind,ro "$NEWROOT"
mount -t tmpfs -o mode=0755,nosuid,noexec tmpfs "$NEWROOT/dev"
for node in null zero full random urandom tty; do
  : >"$NEWROOT/dev/$node"
  mount --bind "/dev/$node" "$NEWROOT/dev/$node"
done
mkdir "$NEWROOT/dev/pts" "$NEWROOT/dev/shm"
mount --bind /dev/pts "$NEWROOT/dev/pts"
ln -s pts/ptmx "$NEWROOT/dev/ptmx"
# pivot_root, then drop the old root entirely: no unmasked /proc may stay behind in this namespace
cd "$NEWROOT"
pivot_root . tmp
umount -l /tmp
mount -t tmpfs -o mode=1777,nosuid,nodev tmpfs /tmp
for extra in "$@"; do
  case $extra in
    kernel-tunables) mount --bind /proc/sys /proc/sys && mount -o remount,bind,ro /proc/sys ;;
    kernel-logs) mount --bind /dev/null /proc/kmsg ;;
    proc-invisible) mount -t proc -o hidepid=invisible proc /proc ;;
    *) echo "check-bwrap-sandbox: unknown directive $extra" >&2; exit 2 ;;
  esac
done
exec /usr/bin/setpriv --bounding-set -all --inh-caps -all --no-new-privs --reuid 65534 --regid 65534 --clear-groups -- \
  /usr/bin/bwrap --unshare-user --unshare-pid --unshare-uts --unshare-ipc --unshare-cgroup-try --unshare-net --die-with-parent \
  --ro-bind /usr /usr --symlink usr/bin /bin --symlink usr/lib /lib --symlink usr/lib64 /lib64 \
  --proc /proc --dev /dev --tmpfs /tmp -- /usr/bin/true
