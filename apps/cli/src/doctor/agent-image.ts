import { DEFAULT_DOCKER_IMAGE } from '@genswarms/runners';
import { dockerSocketOf, engineGet } from './docker-engine';
import type { Check } from './probes';

type Env = Readonly<Record<string, string | undefined>>;

/** The command that builds the default agent image offline (docs/runners.md, "The agent image"). */
export const IMAGE_BUILD_COMMAND = 'genswarms image build';

/**
 * Whether the local engine holds the default agent image (`genswarms/agent:latest`): without it every
 * docker agent that names no image is refused at start with `image_missing`.
 */
export async function checkAgentImage(env: Env): Promise<Check> {
  const name = 'docker image';
  const engine = dockerSocketOf(env);
  if (engine.kind === 'remote') return { name, status: 'missing', detail: `not checked: DOCKER_HOST is a remote engine` };
  const answer = await engineGet(engine.socketPath, `/images/${encodeURIComponent(DEFAULT_DOCKER_IMAGE)}/json`);
  if (answer.kind === 'failed')
    return { name, status: 'missing', detail: `not checked: no engine on ${engine.socketPath} (${answer.why})` };
  if (answer.status === 200) return { name, status: 'ok', detail: `${DEFAULT_DOCKER_IMAGE} is present (default image of docker agents)` };
  if (answer.status === 404)
    return {
      name,
      status: 'missing',
      detail: `${DEFAULT_DOCKER_IMAGE} is not in the local engine; docker agents without an image are refused (image_missing); build it with: ${IMAGE_BUILD_COMMAND}`,
    };
  return { name, status: 'problem', detail: `the engine answered ${answer.status} for ${DEFAULT_DOCKER_IMAGE}` };
}
