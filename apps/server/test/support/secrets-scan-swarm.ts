/**
 * The swarm the secrets scan runs (apps/server/test/secrets-scan.spec.ts): one agent per backend available here,
 * each with its own `api_key` and `config.env` canaries and a /bin/sh client that answers every turn with the
 * sha256 of the key and env value it received (proof they arrived, never the values) and a marker to `hub`, a
 * local genswarms-agent on the operator's trusted endpoint (so it, and only it, holds the operator key).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { testSshdUnavailable } from '@genswarms/tools';
import { dockerReady, TEST_IMAGE } from './fault-kit';

export const NODES_FILE = '/run/genswarms-two-node/nodes.json';
export const NODE2_SOCKET = '/var/run/gs-node2.sock';
/** An endpoint the server does not trust: an agent on it gets its own api_key, never the operator key. */
export const UNTRUSTED = 'http://untrusted.invalid/v1';

const KEY_AND_ENV = `k=$(printf %s "\${GENSWARMS_LLM_API_KEY:-}" | sha256sum | cut -c1-16)
e=$(printf %s "\${SCAN_ENV:-}" | sha256sum | cut -c1-16)`;
const REPLY = `printf 'done %s key=%s env=%s\\n<<SWARM_MSG:TO=hub:START>>\\nscan hello from %s\\n<<SWARM_MSG:END>>\\n' "$turn" "$k" "$e" "$GENSWARMS_AGENT"`;

/** Headless: polls the inbox, answers each turn once (docs/agent.md#3-finishing-a-turn-the-receipt). */
export const HEADLESS_CLIENT = `${KEY_AND_ENV}
T="$GENSWARMS_TURNS_DIR"
while :; do
  for f in "$GENSWARMS_WORKSPACE"/.inbox/*.json; do
    [ -f "$f" ] || continue
    turn=$(sed -n 's/.*"turn":"\\([a-z0-9_-]*\\)".*/\\1/p' "$f")
    [ -n "$turn" ] || continue
    [ -e "$T/$turn/done.json" ] && continue
    ${REPLY} > "$T/$turn/.r" && mv "$T/$turn/.r" "$T/$turn/reply.md"
    printf '{"v":1,"turn":"%s","status":"ok"}' "$turn" > "$T/$turn/.d" && mv "$T/$turn/.d" "$T/$turn/done.json"
  done
  sleep 0.1
done`;

/** TUI (a tmux pane): reads the pasted turn, answers where it says. */
export const TUI_CLIENT = `${KEY_AND_ENV}
while IFS= read -r line; do
  case "$line" in
    *"When finished, write your reply to "*)
      rest=\${line#*When finished, write your reply to }
      reply=\${rest%%, then write*}
      dir=\${reply%/reply.md}
      turn=\${dir##*/}
      ${REPLY} > "$dir/.r" && mv "$dir/.r" "$reply"
      printf '{"v":1,"turn":"%s","status":"ok"}' "$turn" > "$dir/.d" && mv "$dir/.d" "$dir/done.json"
      ;;
  esac
done`;

export interface ScanBackend {
  readonly name: string;
  readonly backend: Record<string, unknown>;
  readonly tui: boolean;
  /** `none`: the runner gives no key at all (docs/security.md#8-llm-endpoint-trust-and-api-keys-genswarms_llm_endpoint-genswarms_allowed_endpoints-genswarms_llm_api_key), so only config.env reaches the client. */
  readonly network?: string;
  /** Why this backend cannot run here ('' = it runs). */
  readonly skip: string;
}

function twoNodeSwarmReason(): string {
  if (!existsSync(NODES_FILE)) return `no ${NODES_FILE} (tools/docker/two-node-swarm.sh up)`;
  const r = spawnSync('/usr/local/bin/docker', ['node', 'ls', '--format', '{{.Status}} {{.Availability}}'], {
    shell: false,
    encoding: 'utf8',
    timeout: 20_000,
  });
  if (r.status !== 0) return 'the local engine is not a swarm manager';
  const ready = r.stdout.split('\n').filter((l) => l.trim() === 'Ready Active').length;
  return ready >= 2 ? '' : `the swarm has ${ready} ready node(s), 2 needed`;
}

/** Every backend of the scan, each with why it is skipped here ('' when it runs). */
export function scanBackends(
  full: boolean,
  ssh: { user: string; host: string; port: number; keyPath: string; knownHosts: string } | undefined,
): ScanBackend[] {
  const docker = dockerReady();
  const noDocker = docker.ok ? '' : docker.why;
  const sshSkip = ssh === undefined ? (testSshdUnavailable() ?? 'sshd not started') : '';
  return [
    { name: 'loc', backend: { type: 'local' }, tui: false, skip: '' },
    { name: 'bw', backend: { type: 'bwrap' }, tui: false, skip: '' },
    { name: 'dk', backend: { type: 'docker', image: TEST_IMAGE }, tui: false, skip: noDocker },
    { name: 'tx', backend: { type: 'tmux', runner: 'none' }, tui: true, skip: '' },
    { name: 'txbw', backend: { type: 'tmux', runner: 'bwrap' }, tui: true, skip: '' },
    { name: 'txdk', backend: { type: 'tmux', runner: 'docker', image: TEST_IMAGE }, tui: true, skip: noDocker },
    {
      name: 'ssh',
      backend:
        ssh === undefined
          ? { type: 'ssh' }
          : {
              type: 'ssh',
              host: `${ssh.user}@${ssh.host}`,
              opts: { port: ssh.port, key_path: ssh.keyPath, known_hosts: ssh.knownHosts },
            },
      tui: false,
      skip: sshSkip,
    },
    {
      name: 'sw',
      backend: { type: 'swarm', image: TEST_IMAGE, opts: { constraints: ['node.labels.genswarms.node==node2'] } },
      tui: false,
      network: 'none',
      // the service start and removal on the second node take 20-40 s under load: the full run only
      skip: !full
        ? 'npm test runs it in the full run only (GENSWARMS_RELIABILITY=full)'
        : noDocker === ''
          ? twoNodeSwarmReason()
          : noDocker,
    },
  ];
}
