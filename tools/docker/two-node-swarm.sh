#!/usr/bin/env bash
# A two-node Docker Swarm on ONE machine, for the swarm backend's specs and bench.
#   node1 = the usual dockerd (/var/run/docker.sock) as the manager, advertised on a veth address;
#   node2 = a second dockerd inside the network namespace gs-node2 (own data-root, exec-root, pidfile, unix
#           socket, bridge, vfs), joined as a worker; the test image is loaded into it.
# Usage: tools/docker/two-node-swarm.sh up|down|status
#   up     idempotent; safe to re-run after a crash (reuses what is healthy, repairs the rest). Writes the
#          per-node engine map (GENSWARMS_SWARM_NODES format) to $STATE_DIR/nodes.json and prints its path.
#   down   node2 leaves and stops, the netns and veth are deleted, the manager leaves the swarm (only if it
#          was initialised by this script: a marker file records that).
#   status prints one line per node, exit 0 when both are Ready.
# Environment: GS_SWARM_STATE_DIR (default /run/genswarms-two-node), GS_SWARM_IMAGE (default genswarms/test-agent:latest).
set -uo pipefail

NETNS=gs-node2
VETH_HOST=gs-n2-host
VETH_PEER=gs-n2-peer
HOST_ADDR=10.231.0.1
PEER_ADDR=10.231.0.2
PREFIX=24
NODE2_ROOT=/var/lib/gs-node2
NODE2_EXEC=/var/run/gs-node2
NODE2_PID=/var/run/gs-node2.pid
NODE2_SOCK=/var/run/gs-node2.sock
NODE2_BIP=172.30.231.1/24
STATE_DIR=${GS_SWARM_STATE_DIR:-/run/genswarms-two-node}
IMAGE=${GS_SWARM_IMAGE:-genswarms/test-agent:latest}
NODE_LABEL=genswarms.node
MANAGER_MARK=$STATE_DIR/manager-initialised-here

log() { echo "two-node-swarm: $*" >&2; }
die() { log "$*"; exit 1; }
d1() { docker "$@"; }
d2() { DOCKER_HOST=unix://$NODE2_SOCK docker "$@"; }
swarm_state() { "$1" info --format '{{.Swarm.LocalNodeState}}' 2>/dev/null; }

ensure_netns() {
  ip netns list | grep -qw "^$NETNS" || ip netns add "$NETNS" || die "ip netns add $NETNS failed"
  if ! ip link show "$VETH_HOST" >/dev/null 2>&1; then
    ip link add "$VETH_HOST" type veth peer name "$VETH_PEER" || die "veth pair failed"
    ip link set "$VETH_PEER" netns "$NETNS" || die "moving $VETH_PEER into $NETNS failed"
  fi
  ip addr show dev "$VETH_HOST" | grep -q "$HOST_ADDR/" || ip addr add "$HOST_ADDR/$PREFIX" dev "$VETH_HOST"
  ip link set "$VETH_HOST" up
  local nsip=(ip netns exec "$NETNS" ip)
  "${nsip[@]}" addr show dev "$VETH_PEER" | grep -q "$PEER_ADDR/" || "${nsip[@]}" addr add "$PEER_ADDR/$PREFIX" dev "$VETH_PEER"
  "${nsip[@]}" link set "$VETH_PEER" up
  "${nsip[@]}" link set lo up
  "${nsip[@]}" route show default | grep -q . || "${nsip[@]}" route add default via "$HOST_ADDR"
}

node2_alive() { [ -S "$NODE2_SOCK" ] && d2 info >/dev/null 2>&1; }

start_node2() {
  node2_alive && return 0
  if [ -f "$NODE2_PID" ]; then # a crashed or hung previous run: stop it by its pidfile, never by name
    local old; old=$(cat "$NODE2_PID" 2>/dev/null || true)
    [[ "$old" =~ ^[0-9]+$ ]] && kill "$old" 2>/dev/null && sleep 2
    rm -f "$NODE2_PID"
  fi
  rm -f "$NODE2_SOCK"
  mkdir -p "$NODE2_ROOT" "$NODE2_EXEC" "$STATE_DIR"
  # nsenter, not `ip netns exec`: the latter remounts /sys in a new mount namespace and hides the cgroup mounts.
  nsenter --net="/var/run/netns/$NETNS" setsid dockerd --data-root "$NODE2_ROOT" --exec-root "$NODE2_EXEC" \
    --pidfile "$NODE2_PID" -H "unix://$NODE2_SOCK" --bip "$NODE2_BIP" --storage-driver=vfs \
    >"$STATE_DIR/node2-dockerd.log" 2>&1 </dev/null &
  for _ in $(seq 1 120); do node2_alive && return 0; sleep 0.5; done
  tail -20 "$STATE_DIR/node2-dockerd.log" >&2
  die "node2 dockerd did not come up"
}

ensure_manager() {
  case $(swarm_state d1) in
    active)
      [ "$(d1 info --format '{{.Swarm.ControlAvailable}}')" = true ] || die "node1 is in a swarm but not a manager"
      ;;
    *)
      d1 swarm init --advertise-addr "$HOST_ADDR" --listen-addr "$HOST_ADDR:2377" >/dev/null || die "docker swarm init failed"
      touch "$MANAGER_MARK"
      ;;
  esac
}

ensure_worker() {
  local manager_addr token
  # A worker's info carries no cluster id: node2 is a member when the manager knows its node id.
  local node2_id; node2_id=$(d2 info --format '{{.Swarm.NodeID}}' 2>/dev/null)
  if [ "$(swarm_state d2)" = active ] && [ -n "$node2_id" ] && d1 node inspect "$node2_id" >/dev/null 2>&1; then
    return 0
  fi
  [ "$(swarm_state d2)" = inactive ] || d2 swarm leave --force >/dev/null 2>&1
  manager_addr=$(d1 info --format '{{.Swarm.NodeAddr}}')
  token=$(d1 swarm join-token -q worker) || die "no worker join token"
  d2 swarm join --token "$token" --advertise-addr "$PEER_ADDR" "$manager_addr:2377" >/dev/null || die "node2 could not join $manager_addr:2377"
}

label_nodes() {
  local n1 n2
  n1=$(d1 info --format '{{.Swarm.NodeID}}'); n2=$(d2 info --format '{{.Swarm.NodeID}}')
  d1 node update --label-add "$NODE_LABEL=node1" "$n1" >/dev/null
  d1 node update --label-add "$NODE_LABEL=node2" "$n2" >/dev/null
  # Wait until node2 reports Ready (the manager learns it a little after the join).
  for _ in $(seq 1 60); do
    [ "$(d1 node inspect -f '{{.Status.State}}' "$n2" 2>/dev/null)" = ready ] && break; sleep 0.5
  done
  umask 077
  printf '{"%s":{"host":"unix:///var/run/docker.sock"},"%s":{"host":"unix://%s"}}\n' "$n1" "$n2" "$NODE2_SOCK" >"$STATE_DIR/nodes.json.tmp"
  mv "$STATE_DIR/nodes.json.tmp" "$STATE_DIR/nodes.json"
}

load_image() {
  d2 image inspect "$IMAGE" >/dev/null 2>&1 && [ "$(d2 image inspect -f '{{.Id}}' "$IMAGE")" = "$(d1 image inspect -f '{{.Id}}' "$IMAGE")" ] && return 0
  d1 image inspect "$IMAGE" >/dev/null 2>&1 || die "$IMAGE is not on node1 (run tools/docker/build-test-image.sh first)"
  d1 save "$IMAGE" | d2 load >/dev/null || die "loading $IMAGE into node2 failed"
}

cmd_up() {
  command -v dockerd >/dev/null || die "dockerd not found"
  d1 info >/dev/null 2>&1 || die "no engine at /var/run/docker.sock"
  mkdir -p "$STATE_DIR"; chmod 0700 "$STATE_DIR"
  ensure_netns
  start_node2
  ensure_manager
  ensure_worker
  label_nodes
  load_image
  echo "$STATE_DIR/nodes.json"
}

cmd_down() {
  if node2_alive; then
    d2 swarm leave --force >/dev/null 2>&1
  fi
  if [ -f "$NODE2_PID" ]; then
    local pid; pid=$(cat "$NODE2_PID" 2>/dev/null || true)
    if [[ "$pid" =~ ^[0-9]+$ ]] && kill "$pid" 2>/dev/null; then
      for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
    fi
    rm -f "$NODE2_PID"
  fi
  rm -f "$NODE2_SOCK"
  if [ -f "$MANAGER_MARK" ] && [ "$(swarm_state d1)" = active ]; then
    d1 swarm leave --force >/dev/null 2>&1 || log "node1 could not leave the swarm"
  fi
  rm -f "$MANAGER_MARK" "$STATE_DIR/nodes.json"
  ip link show "$VETH_HOST" >/dev/null 2>&1 && ip link delete "$VETH_HOST"
  ip netns list | grep -qw "^$NETNS" && ip netns delete "$NETNS"
  return 0
}

cmd_status() {
  local ok=0
  [ "$(swarm_state d1)" = active ] || { echo "node1: swarm $(swarm_state d1 || echo unreachable)"; ok=1; }
  if node2_alive; then
    echo "node2: engine up, swarm $(swarm_state d2)"
  else
    echo "node2: engine down"; ok=1
  fi
  [ "$(swarm_state d1)" = active ] && d1 node ls --format '{{.ID}} {{.Hostname}} {{.Status}} {{.ManagerStatus}}'
  [ "$ok" -eq 0 ] && [ "$(d1 node ls --filter role=worker --format '{{.Status}}' 2>/dev/null)" = Ready ]
}

case ${1:-} in
  up) cmd_up ;;
  down) cmd_down ;;
  status) cmd_status ;;
  *) die "usage: $0 up|down|status" ;;
esac
