/**
 * Plan-time check of a docker agent's image: an image the local engine does not
 * hold is refused before anything is created — `image_missing`, naming the image and the command that
 * builds it — instead of a container create failing late. No pull: the engine has no registry here.
 */
import { RunnerError } from '../errors/runner-error';
import { DEFAULT_DOCKER_IMAGE } from './container-spec';
import type { DockerPort } from './docker-port';

/** The command that builds `image` offline on this host (docs/runners.md, "The agent image"). */
export function imageBuildCommand(image: string): string {
  return image === DEFAULT_DOCKER_IMAGE ? 'genswarms image build' : `genswarms image build --tag ${image}`;
}

/**
 * Refuses with `image_missing` when the engine answers and does not hold `image`. An engine that does
 * not answer is left to start (`start_failed`, "the docker engine does not answer on …"); a port without
 * image inspection (a test fake) skips the check.
 */
export async function assertImagePresent(port: DockerPort, image: string, agent: string): Promise<void> {
  if (port.hasImage === undefined || !(await port.ping())) return;
  if (await port.hasImage(image)) return;
  const build = imageBuildCommand(image);
  throw new RunnerError('image_missing', `image ${image} is not present in the local Docker engine; build it with: ${build}`, {
    agent,
    details: { image, build_command: build },
  });
}
