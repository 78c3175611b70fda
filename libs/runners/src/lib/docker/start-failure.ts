/**
 * Start failures of a docker agent as sentences an operator acts on: which engine,
 * which container and image, what the engine said, and what to do.
 */
import { RunnerError } from '../errors/runner-error';
import { localEngineSocket } from './engine-host';
import { imageBuildCommand } from './image-check';

/** Engine HTTP status of a dockerode error (404 no such image/container, 409 conflict, 500 engine failure). */
function engineStatusOf(err: unknown): number | undefined {
  const code = (err as { statusCode?: unknown } | null)?.statusCode;
  return typeof code === 'number' ? code : undefined;
}

/** The engine's own reason, first line, bounded (it names images and containers, never env values). */
function engineReasonOf(err: unknown): string {
  const json = (err as { json?: { message?: unknown } } | null)?.json;
  const text = typeof json?.message === 'string' ? json.message : err instanceof Error ? err.message : String(err);
  return (text.split('\n')[0] ?? '').slice(0, 300);
}

export function engineUnreachable(dockerHost: string | undefined, agent: string): RunnerError {
  const socket = localEngineSocket(dockerHost, agent);
  return new RunnerError(
    'start_failed',
    `the docker engine does not answer on ${socket}; start dockerd (or point DOCKER_HOST at a local unix:// socket) and restart the agent`,
    { agent, details: { socket } },
  );
}

/** A create/start the engine refused: a vanished image is `image_missing`, anything else `start_failed`. */
export function containerStartFailure(err: unknown, container: string, image: string, agent: string): RunnerError {
  const reason = engineReasonOf(err);
  const status = engineStatusOf(err);
  if (status === 404 && /no such image/i.test(reason)) {
    const build = imageBuildCommand(image);
    return new RunnerError('image_missing', `image ${image} is not present in the local Docker engine; build it with: ${build}`, {
      agent,
      details: { image, build_command: build },
      cause: err,
    });
  }
  return new RunnerError(
    'start_failed',
    `the docker engine could not start container ${container} (image ${image}): ${reason}; check the engine (docker info) and the image, then restart the agent`,
    { agent, details: { container, image, ...(status === undefined ? {} : { engine_status: status }) }, cause: err },
  );
}
