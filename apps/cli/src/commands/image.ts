import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_DOCKER_IMAGE } from '@genswarms/runners';
import type { CommandModule } from '../cli/command-module';
import type { CliContext } from '../cli/context';
import { CliError, EXIT } from '../cli/exit-codes';
import type { ExitCode } from '../cli/exit-codes';

/** The script that assembles the rootfs from this host's Debian packages and `docker import`s it (offline). */
export const IMAGE_BUILD_SCRIPT = path.resolve(__dirname, '..', '..', '..', '..', 'tools', 'docker', 'build-agent-image.sh');
const BASH = '/bin/bash';
/** A docker image reference we accept as a tag: lower-case repository path, optional tag; never a flag. */
const IMAGE_TAG_RE = /^[a-z0-9]+(?:[._-][a-z0-9]+)*(?:\/[a-z0-9]+(?:[._-][a-z0-9]+)*)*(?::[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})?$/;

/** Pure: the argv that builds `tag` (the script validates the tag again). */
export function imageBuildArgv(tag: string, script: string = IMAGE_BUILD_SCRIPT): readonly [string, readonly string[]] {
  if (!IMAGE_TAG_RE.test(tag))
    throw new CliError('invalid_tag', `--tag must be an image reference like genswarms/agent:latest`, EXIT.usage);
  return [BASH, [script, tag]];
}

/** Pure: the build's environment — a fixed PATH, plus HOME and DOCKER_HOST for the docker client; nothing else. */
export function imageBuildEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = { PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', LANG: 'C' };
  for (const name of ['HOME', 'DOCKER_HOST'] as const) {
    const value = env[name];
    if (value !== undefined && value !== '') out[name] = value;
  }
  return out;
}

function runBuild(ctx: CliContext, file: string, argv: readonly string[]): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, [...argv], { shell: false, stdio: ['ignore', 'pipe', 'pipe'], env: imageBuildEnv(ctx.env) });
    child.stdout.on('data', (c: Buffer) => ctx.stdout.write(c));
    child.stderr.on('data', (c: Buffer) => ctx.stderr.write(c));
    child.once('error', reject);
    child.once('close', (code) => resolve(code));
  });
}

async function buildImage(ctx: CliContext, tag: string): Promise<ExitCode> {
  const [file, argv] = imageBuildArgv(tag);
  if (!existsSync(IMAGE_BUILD_SCRIPT))
    throw new CliError('script_missing', `the image build script is missing (${IMAGE_BUILD_SCRIPT})`, EXIT.failed);
  const code = await runBuild(ctx, file, argv);
  if (code !== 0)
    throw new CliError('image_build_failed', `building ${tag} failed (exit ${String(code)}); see the lines above`, EXIT.failed);
  return EXIT.ok;
}

/**
 * `image build [--tag T]`: builds the docker agent image (default `genswarms/agent:latest`) locally and
 * offline from this host's Debian packages (busybox-static, nodejs, socat, ca-certificates); no registry.
 */
export const imageCommand: CommandModule = {
  name: 'image',
  register(program, deps): void {
    const image = program.command('image').description('The docker agent image');
    image
      .command('build')
      .description(`Build the docker agent image offline from this host's Debian packages (default ${DEFAULT_DOCKER_IMAGE}; no registry)`)
      .option('--tag <image>', 'image reference to build', DEFAULT_DOCKER_IMAGE)
      .addHelpText('after', `\nExamples:\n  genswarms image build\n  genswarms image build --tag acme/agent:dev`)
      .action(deps.action(async (opts: { tag: string }) => buildImage(deps.ctx, opts.tag)));
  },
};
