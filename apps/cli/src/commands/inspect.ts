import type { CommandModule } from '../cli/command-module';
import { writeLine } from '../cli/context';
import { EXIT } from '../cli/exit-codes';
import { callOp } from '../client/call';

/** The `isolation` block of an agent status (docs/rest-api.md): read from the live process, never the config. */
interface IsolationView {
  verified_at?: string;
  pid?: number;
  uid?: number;
  gid?: number;
  namespaces?: string[];
  no_new_privs?: boolean;
  seccomp?: string;
  network?: string;
  egress?: string;
  limits?: { memory_bytes?: number; pids?: number; cpu?: number };
  mounts?: { workspace?: string; state_dir?: string; host_root_visible?: boolean };
  bypass_flags?: string[];
  differences?: { field: string; expected: string; actual: string }[];
}

const MIB = 1024 * 1024;

function limitsLine(l: IsolationView['limits']): string {
  const parts = [
    ...(l?.memory_bytes === undefined ? [] : [`memory ${Math.round(l.memory_bytes / MIB)} MiB`]),
    ...(l?.pids === undefined ? [] : [`pids ${l.pids}`]),
    ...(l?.cpu === undefined ? [] : [`cpu ${l.cpu}`]),
  ];
  return parts.length === 0 ? 'none in force' : parts.join(', ');
}

/** Human lines of one isolation block; pure (tested as lines). */
export function isolationLines(swarm: string, agent: string, iso: IsolationView | null | undefined): string[] {
  if (iso === null || iso === undefined) {
    return [
      `${swarm}/${agent}: isolation not checked (the agent is not running, or its runner has no live check: ssh, apple_container, mock)`,
    ];
  }
  const m = iso.mounts ?? {};
  const diffs = iso.differences ?? [];
  return [
    `${swarm}/${agent}: isolation of pid ${iso.pid ?? '?'}${iso.uid === undefined ? '' : ` (uid ${iso.uid}, gid ${iso.gid ?? '?'})`}, read ${iso.verified_at ?? '?'}`,
    `  namespaces not shared with the server: ${(iso.namespaces ?? []).join(' ') || 'none'}`,
    `  network: ${iso.network ?? '?'}${iso.egress === undefined ? '' : ` (egress pinned to ${iso.egress})`}`,
    `  no_new_privs: ${iso.no_new_privs === true ? 'yes' : 'no'}, seccomp: ${iso.seccomp ?? '?'}`,
    `  limits: ${limitsLine(iso.limits)}`,
    `  mounts: workspace ${m.workspace ?? '?'}, state dir ${m.state_dir ?? '?'}, host root ${m.host_root_visible === true ? 'VISIBLE' : 'hidden'}`,
    `  bypass flags: ${(iso.bypass_flags ?? []).join(' ') || 'none'}`,
    diffs.length === 0
      ? '  matches its plan'
      : `  MISMATCH (needs attention: isolation_mismatch): ${diffs.map((d) => `${d.field} expected ${d.expected}, is ${d.actual}`).join('; ')}`,
  ];
}

/** `inspect <swarm> <agent> [--json]`: the isolation an agent really has (GET /api/swarms/<s>/agents/<a>, its `isolation`). */
export const inspectCommand: CommandModule = {
  name: 'inspect',
  register(program, deps): void {
    program
      .command('inspect')
      .description("The isolation an agent's live process really has: namespaces, seccomp, network, limits, mounts, mismatches")
      .argument('<swarm>', 'swarm name')
      .argument('<agent>', 'agent name')
      .option('--json', 'print the isolation block as JSON (null when not checked)')
      .addHelpText('after', '\nExamples:\n  genswarms inspect demo writer\n  genswarms inspect demo writer --json')
      .action(
        deps.action(async (swarm: string, agent: string, opts: { json?: boolean }) => {
          const body = await callOp(deps, 'getAgent', { params: { s: swarm, a: agent } }, { json: false });
          if (opts.json === true) writeLine(deps.ctx.stdout, JSON.stringify(body.isolation ?? null));
          else for (const line of isolationLines(swarm, agent, body.isolation)) writeLine(deps.ctx.stdout, line);
          return EXIT.ok;
        }),
      );
  },
};
