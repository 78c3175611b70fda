import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { parseSshTarget } from '@genswarms/ir-gate';
import { fingerprintOf, loadKnownHosts, parseKnownHosts, probeHostKey, verifyHostKey, type KnownHostEntry } from '@genswarms/runners';
import type { CommandModule } from '../cli/command-module';
import type { CliContext } from '../cli/context';
import { writeLine } from '../cli/context';
import { CliError, EXIT, type ExitCode } from '../cli/exit-codes';
import { ensureHome, homePath } from '../daemon/home';

import { appendKnownHost, defaultKnownHostsFile, knownHostsLine } from '../ssh/known-hosts-file';

/** The longest confirmation answer read from stdin. */
const ANSWER_MAX_BYTES = 64;
const FINGERPRINT_RE = /^SHA256:[A-Za-z0-9+/]{43}$/;

function targetOf(text: string): { user: string; host: string; port: number } {
  const t = parseSshTarget(text, { allowPort: true });
  if (t.kind === 'invalid') throw new CliError('invalid_host', `${t.reason}`, EXIT.usage);
  return { user: t.value.user, host: t.value.host, port: t.value.port ?? 22 };
}

async function readAnswer(ctx: CliContext): Promise<string> {
  const stdin = ctx.stdin;
  if (stdin === undefined) return '';
  let text = '';
  for await (const chunk of stdin) {
    text += Buffer.isBuffer(chunk) ? chunk.toString('utf8') : String(chunk);
    if (text.includes('\n') || text.length > ANSWER_MAX_BYTES) break;
  }
  return text.split('\n')[0]?.trim() ?? '';
}

interface TrustOptions {
  readonly fingerprint?: string;
  readonly knownHosts?: string;
}

/**
 * `ssh trust <user@host[:port]>`: shows the offered key's SHA256 fingerprint; writes a hashed known_hosts line only when
 * `--fingerprint` matches or the operator answers `yes`. A changed or revoked key is never overwritten.
 */
async function trust(ctx: CliContext, text: string, opts: TrustOptions): Promise<ExitCode> {
  const target = targetOf(text);
  if (opts.fingerprint !== undefined && !FINGERPRINT_RE.test(opts.fingerprint)) {
    throw new CliError('invalid_fingerprint', '--fingerprint must look like SHA256:<43 base64 characters> (ssh-keygen -l)', EXIT.usage);
  }
  const file = opts.knownHosts ?? defaultKnownHostsFile(await ensureHome(ctx.env, ctx.cwd));
  const probe = await probeHostKey(target.host, target.port);
  if (probe.kind === 'unreachable')
    throw new CliError('ssh_unreachable', `${text} did not offer a host key (${probe.reason})`, EXIT.failed);
  const type = probe.key.subarray(4, 4 + probe.key.readUInt32BE(0)).toString('latin1');
  const fp = fingerprintOf(probe.key);
  writeLine(ctx.stdout, `${target.host}:${target.port} offers ${type} ${fp}`);
  const verdict = verifyHostKey(await loadKnownHosts([file]), target.host, target.port, probe.key);
  switch (verdict.kind) {
    case 'trusted':
      writeLine(ctx.stdout, `already trusted in ${file}`);
      return EXIT.ok;
    case 'revoked':
      throw new CliError('ssh_host_key_revoked', `this key is @revoked in ${file}; not trusted`, EXIT.failed);
    case 'mismatch':
      throw new CliError(
        'ssh_host_key_mismatch',
        `${file} holds a DIFFERENT key for this host (${verdict.expected.join(', ')}): possible MITM. Remove the old line yourself if the host was really re-keyed.`,
        EXIT.failed,
      );
    case 'unknown':
      break;
  }
  if (opts.fingerprint !== undefined) {
    if (opts.fingerprint !== fp)
      throw new CliError('fingerprint_mismatch', `the offered key is ${fp}, not ${opts.fingerprint}; nothing written`, EXIT.failed);
  } else {
    ctx.stdout.write(`Trust this key for ${target.host}:${target.port}? Type yes to write it to ${file}: `);
    const answer = await readAnswer(ctx);
    if (answer !== 'yes')
      throw new CliError('not_confirmed', 'not confirmed; nothing written (pin non-interactively with --fingerprint)', EXIT.failed);
  }
  await appendKnownHost(file, knownHostsLine(target.host, target.port, type, probe.key));
  writeLine(ctx.stdout, `trusted: ${fp} written to ${file}`);
  return EXIT.ok;
}

function describeEntry(e: KnownHostEntry, file: string): string {
  const hosts = e.patterns.map((p) => (p.startsWith('|') ? '(hashed)' : p)).join(',');
  const marker = e.marker === 'none' ? '' : `@${e.marker} `;
  return `${marker}${hosts} ${e.keyType} ${fingerprintOf(e.key)}  ${file}:${e.line}`;
}

/** `ssh keys`: every entry the ssh backend would consult, with its fingerprint (hashed names stay hashed). */
async function keys(ctx: CliContext, opts: { readonly knownHosts?: string; readonly json?: boolean }): Promise<ExitCode> {
  const userHome = ctx.env['HOME'];
  const files =
    opts.knownHosts !== undefined
      ? [opts.knownHosts]
      : [
          defaultKnownHostsFile(homePath(ctx.env, ctx.cwd)),
          ...(userHome === undefined || !path.isAbsolute(userHome) ? [] : [path.join(userHome, '.ssh', 'known_hosts')]),
        ];
  const rows: { file: string; entry: KnownHostEntry }[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = await fsp.readFile(file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw new CliError('known_hosts_unreadable', `${file} cannot be read`, EXIT.failed);
    }
    for (const entry of parseKnownHosts(text).entries) rows.push({ file, entry });
  }
  if (opts.json === true) {
    const out = rows.map(({ file, entry }) => ({
      file,
      line: entry.line,
      marker: entry.marker,
      hosts: entry.patterns.map((p) => (p.startsWith('|') ? '(hashed)' : p)),
      type: entry.keyType,
      fingerprint: fingerprintOf(entry.key),
    }));
    writeLine(ctx.stdout, JSON.stringify({ files, keys: out }));
    return EXIT.ok;
  }
  if (rows.length === 0) writeLine(ctx.stdout, `no trusted host keys in ${files.join(' or ')}`);
  for (const { file, entry } of rows) writeLine(ctx.stdout, describeEntry(entry, file));
  return EXIT.ok;
}

/** `ssh trust|keys`: host keys of the ssh backend (docs/cli.md, docs/security.md "ssh trust model"). */
export const sshCommand: CommandModule = {
  name: 'ssh',
  register(program, deps): void {
    const ssh = program.command('ssh').description('Host keys of the ssh backend (known_hosts)');
    ssh
      .command('trust <target>')
      .description('Show the host key user@host[:port] offers and add it to $GENSWARMS_HOME/known_hosts after confirmation')
      .option('--fingerprint <sha256>', 'pin non-interactively: write only if the offered key has this SHA256 fingerprint')
      .option('--known-hosts <file>', 'the known_hosts file to write (default $GENSWARMS_HOME/known_hosts)')
      .addHelpText(
        'after',
        '\nExamples:\n  genswarms ssh trust dev@build-1.example.com\n  genswarms ssh trust dev@10.0.0.7:2222 --fingerprint SHA256:…',
      )
      .action(deps.action(async (target: string, opts: TrustOptions) => trust(deps.ctx, target, opts)));
    ssh
      .command('keys')
      .description('List the host keys the ssh backend trusts ($GENSWARMS_HOME/known_hosts, then ~/.ssh/known_hosts)')
      .option('--known-hosts <file>', 'list this file only')
      .option('--json', 'print {files, keys} as JSON')
      .action(deps.action(async (opts: { knownHosts?: string; json?: boolean }) => keys(deps.ctx, opts)));
  },
};
