/**
 * A docker agent whose image the local engine does not hold is refused at plan time
 * (`preflight`) with `image_missing`, the image and the command that builds it — nothing is created.
 */
import { RunnerError } from '../../src/index';
import type { DockerPort } from '../../src/lib/docker/docker-port';
import { createDockerRunner } from '../../src/lib/docker/docker-runner';
import { assertImagePresent, imageBuildCommand } from '../../src/lib/docker/image-check';
import { containersWithLabel, describeIfEngine, makeCtx, makeDirs, makeDockerSpec, TEST_IMAGE } from './docker-support';
import { refusal } from '@genswarms/test-kit';

/** A port that answers only what the check asks; every other call fails the test. */
function fakePort(answers: { ping: boolean; hasImage?: boolean }): DockerPort {
  const unexpected = (): never => {
    throw new Error('unexpected docker call');
  };
  return {
    ping: () => Promise.resolve(answers.ping),
    ...(answers.hasImage === undefined ? {} : { hasImage: () => Promise.resolve(answers.hasImage as boolean) }),
    create: unexpected,
    start: unexpected,
    inspect: unexpected,
    wait: unexpected,
    stop: unexpected,
    remove: unexpected,
    pause: unexpected,
    unpause: unexpected,
    logs: unexpected,
    listByLabels: unexpected,
  };
}

describe('the image check', () => {
  it('refuses an absent default image with the command that builds it', async () => {
    const err = await refusal(RunnerError, assertImagePresent(fakePort({ ping: true, hasImage: false }), 'genswarms/agent:latest', 'a'));
    expect([err.code, err.message, err.agent, err.details]).toEqual([
      'image_missing',
      'image genswarms/agent:latest is not present in the local Docker engine; build it with: genswarms image build',
      'a',
      { image: 'genswarms/agent:latest', build_command: 'genswarms image build' },
    ]);
  });

  it('names the tag for an image of the agent’s own', async () => {
    const err = await refusal(RunnerError, assertImagePresent(fakePort({ ping: true, hasImage: false }), 'acme/coder:1', 'a'));
    expect(err.details).toEqual({ image: 'acme/coder:1', build_command: 'genswarms image build --tag acme/coder:1' });
    expect(imageBuildCommand('acme/coder:1')).toBe('genswarms image build --tag acme/coder:1');
  });

  test.each([
    ['the image is present', { ping: true, hasImage: true }],
    ['the engine does not answer (start reports it)', { ping: false, hasImage: false }],
    ['the port cannot inspect images (a fake)', { ping: true }],
  ])('passes when %s', async (_what, answers) => {
    await expect(assertImagePresent(fakePort(answers), 'genswarms/agent:latest', 'a')).resolves.toBeUndefined();
  });
});

describeIfEngine('preflight against the real engine', () => {
  const dirs = makeDirs('gs-image-');
  afterAll(() => dirs.cleanup());

  it('refuses a docker agent whose image is absent, creating no container; passes the test image', async () => {
    const runner = createDockerRunner();
    const ctx = makeCtx(dirs.home);
    const absent = runner.plan(makeDockerSpec({ workspace: dirs.workspace, agent: 'img1', image: 'genswarms/absent-image:none' }), ctx);
    const err = await refusal(RunnerError, runner.preflight?.(absent, ctx) ?? Promise.resolve());
    expect(err.code).toBe('image_missing');
    expect(err.message).toContain('genswarms image build --tag genswarms/absent-image:none');
    expect(containersWithLabel('genswarms.agent', 'img1')).toEqual([]);
    const present = runner.plan(makeDockerSpec({ workspace: dirs.workspace, agent: 'img2', image: TEST_IMAGE }), ctx);
    await expect(runner.preflight?.(present, ctx)).resolves.toBeUndefined();
  });
});
