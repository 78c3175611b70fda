/**
 * `genswarms image build` builds the docker agent image offline from this host's
 * Debian packages. The build itself runs against the real engine when one answers (about 10 s here);
 * the argv and environment are checked as whole tuples everywhere.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { IMAGE_BUILD_SCRIPT, imageBuildArgv, imageBuildEnv } from '../src/commands/image';
import { cli } from './support';

const DOCKER = ['/usr/local/bin/docker', '/usr/bin/docker'].find((p) => existsSync(p));
const ENGINE = DOCKER !== undefined && existsSync('/var/run/docker.sock');
const PROBE_TAG = 'genswarms-cli-test/agent:probe';

function docker(args: readonly string[]): { status: number | null; stdout: string } {
  const r = spawnSync(DOCKER ?? '/nonexistent', [...args], { shell: false, encoding: 'utf8', env: { PATH: '/usr/bin:/bin' } });
  return { status: r.status, stdout: r.stdout ?? '' };
}

describe('genswarms image build: argv and environment', () => {
  it('runs the repository script with bash and the tag, nothing else', () => {
    expect(imageBuildArgv('genswarms/agent:latest')).toEqual(['/bin/bash', [IMAGE_BUILD_SCRIPT, 'genswarms/agent:latest']]);
    expect(existsSync(IMAGE_BUILD_SCRIPT)).toBe(true);
  });

  test.each(['--privileged', 'UPPER/case', 'a b', 'x;rm', '', 'a:', 'a/../b', 'a\0b'])('refuses the tag %j', async (tag) => {
    expect(() => imageBuildArgv(tag)).toThrow(/--tag must be an image reference/);
    const r = await cli(['image', 'build', '--tag', tag], { PATH: '/usr/bin:/bin' });
    expect([r.code, r.stderr]).toEqual([2, 'genswarms: invalid_tag: --tag must be an image reference like genswarms/agent:latest\n']);
  });

  it('passes only PATH, LANG, HOME and DOCKER_HOST to the build', () => {
    expect(imageBuildEnv({ HOME: '/root', DOCKER_HOST: 'unix:///run/d.sock', GENSWARMS_API_TOKEN: 't', PATH: '/evil' })).toEqual({
      PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
      LANG: 'C',
      HOME: '/root',
      DOCKER_HOST: 'unix:///run/d.sock',
    });
  });

  it('a build that cannot reach an engine fails with the script’s reason and exit 1', async () => {
    const r = await cli(['image', 'build', '--tag', PROBE_TAG], { PATH: '/usr/bin:/bin', DOCKER_HOST: 'unix:///nonexistent/docker.sock' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('build-agent-image: no docker engine reachable');
    expect(r.stderr).toContain(`genswarms: image_build_failed: building ${PROBE_TAG} failed (exit 1)`);
  });
});

(ENGINE ? describe : describe.skip)('genswarms image build against the real engine', () => {
  if (!ENGINE) console.warn('SKIPPED image build: no docker engine on /var/run/docker.sock (CI starts dockerd)');
  afterAll(() => {
    docker(['image', 'rm', PROBE_TAG]);
  });

  it('builds an image with node, socat and /bin/sh, without a registry, and a second run is a no-op', async () => {
    const first = await cli(['image', 'build', '--tag', PROBE_TAG], { PATH: '/usr/bin:/bin', HOME: '/root' });
    expect([first.code, first.stderr]).toEqual([0, '']);
    expect(first.stdout).toMatch(new RegExp(`build-agent-image: (built|${PROBE_TAG} is up to date)`));
    const run = docker([
      'run',
      '--rm',
      '--network',
      'none',
      '--user',
      '1000:1000',
      PROBE_TAG,
      '/bin/sh',
      '-c',
      'node -v && socat -V | head -n 2',
    ]);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^v\d+\.\d+\.\d+\n/);
    expect(run.stdout).toContain('socat version');
    const again = await cli(['image', 'build', '--tag', PROBE_TAG], { PATH: '/usr/bin:/bin', HOME: '/root' });
    expect(again.stdout).toContain(`build-agent-image: ${PROBE_TAG} is up to date`);
  }, 180_000);
});
