import type { CommandModule } from '../cli/command-module';
import { writeLine } from '../cli/context';
import { EXIT } from '../cli/exit-codes';
import { backendPosture, clientModes, formatPosture } from '../doctor/backends';
import { checkProcessTracking } from '../doctor/tracking';
import { checkAgentIds } from '../doctor/agent-ids';
import { checkTmuxUtmp } from '../doctor/tmux-utmp';
import { checkAppleContainer, checkLimits } from '../doctor/limits';
import { checkAgentImage } from '../doctor/agent-image';
import { checkCodingClients } from '../doctor/coding-clients';
import { checkScaleLimits } from '../doctor/scale-limits';
import { doctorSshChecks } from '../ssh/doctor-ssh';
import type { Check, CheckStatus } from '../doctor/probes';
import {
  checkBind,
  checkBwrap,
  checkDocker,
  checkNixStore,
  checkPty,
  checkSetpriv,
  checkSocat,
  checkTmux,
  checkToken,
  checkXargs,
} from '../doctor/probes';

const MARK: Readonly<Record<CheckStatus, string>> = { ok: 'ok     ', missing: 'missing', problem: 'PROBLEM' };

/**
 * `doctor [--json]`: the sandbox posture of this host, one line per check, then per backend the network
 * modes it can really enforce here. Exit 0 whenever the checks ran (findings are not failures).
 * Never prints the token, only whether it is set.
 */
export const doctorCommand: CommandModule = {
  name: 'doctor',
  register(program, deps): void {
    program
      .command('doctor')
      .description(
        'Check what isolation this host can give agents (bwrap, socat, tmux and its utmp shim, docker and its agent image, xargs, agent ids, process tracking, limits per backend, apple container, token, bind, the host limits a start is checked against and the agents of each runner that fit, the coding clients installed by genswarms)',
      )
      .option('--json', 'print {checks, backends} as JSON')
      .option('--ssh <user@host[:port]>', 'also check an ssh host: reachable, host key known/unknown/changed, remote xargs/tmux/bwrap')
      .option('--ssh-key <file>', 'with --ssh: the private key to log in with for the remote checks')
      .addHelpText(
        'after',
        `
Examples:
  genswarms doctor
  genswarms doctor --json
  genswarms doctor --ssh deploy@build-host:2222 --ssh-key ~/.ssh/id_ed25519`,
      )
      .action(
        deps.action(async (opts: { json?: boolean; ssh?: string; sshKey?: string }) => {
          const env = deps.ctx.env;
          const checks: Check[] = [
            ...(await Promise.all([
              checkBwrap(env),
              checkSocat(env),
              checkTmux(env),
              checkDocker(env),
              checkAgentImage(env),
              checkXargs(env),
              checkNixStore(env),
            ])),
            checkTmuxUtmp(),
            checkPty(),
            checkSetpriv(env),
            checkAgentIds(env, { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 }),
            checkProcessTracking(),
            checkLimits(),
            checkAppleContainer(env),
            checkToken(env),
            checkBind(env),
            ...checkScaleLimits(),
            ...(await checkCodingClients(env, deps.ctx.cwd)),
            ...(await doctorSshChecks(env, deps.ctx.cwd, opts)),
          ];
          const backends = backendPosture(checks);
          const modes = clientModes(backends);
          // a client that runs here can run in these modes (the backends' checks say which exist)
          const shown = checks.map((c) =>
            c.name.startsWith('client ') && c.status === 'ok' ? { ...c, detail: `${c.detail}; ${modes}` } : c,
          );
          if (opts.json === true) {
            writeLine(deps.ctx.stdout, JSON.stringify({ checks: shown, backends }));
            return EXIT.ok;
          }
          for (const c of shown) writeLine(deps.ctx.stdout, `${MARK[c.status]}  ${c.name}: ${c.detail}`);
          writeLine(deps.ctx.stdout, 'isolation per backend on this host (network modes):');
          for (const p of backends) writeLine(deps.ctx.stdout, `  ${formatPosture(p)}`);
          return EXIT.ok;
        }),
      );
  },
};
