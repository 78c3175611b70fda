import type DockerClient from 'dockerode';
import type { ContainerCreateOptions } from 'dockerode';
import type { ContainerCreateSpec, ContainerState, ContainerSummary, DockerPort, LogFollow, LogStream } from './docker-port';
import { LogDemuxer } from './log-demux';

/** Engine HTTP status of a dockerode error (404 no such container, 304 already stopped/started, 409 conflict). */
function statusOf(err: unknown): number | undefined {
  const code = (err as { statusCode?: unknown } | null)?.statusCode;
  return typeof code === 'number' ? code : undefined;
}

async function tolerate(statuses: readonly number[], op: () => Promise<unknown>): Promise<void> {
  try {
    await op();
  } catch (err) {
    const status = statusOf(err);
    if (status === undefined || !statuses.includes(status)) throw err;
  }
}

function toCreateOptions(spec: ContainerCreateSpec): ContainerCreateOptions {
  // The readonly spec is copied into the mutable shape dockerode's typings expect.
  return JSON.parse(JSON.stringify(spec)) as ContainerCreateOptions;
}

/**
 * dockerode (and its ssh2/protobuf dependencies, ~120 ms) is loaded on the first port created, not when the
 * runners barrel is imported: every CLI command imports the barrel (doctor's process tracking), few talk to Docker.
 */
export function loadDockerode(): typeof DockerClient {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load; `import()` is not available to jest's CommonJS runtime
  return require('dockerode') as typeof DockerClient;
}

/** The DockerPort over dockerode, talking to a local engine socket only. */
export function createDockerodePort(socketPath: string): DockerPort {
  const Docker = loadDockerode();
  return dockerPortOver(new Docker({ socketPath }));
}

/** The DockerPort over an already-built dockerode client (the swarm runner: a node's engine, maybe over TLS). */
export function dockerPortOver(docker: DockerClient): DockerPort {
  return {
    async ping(): Promise<boolean> {
      try {
        await docker.ping();
        return true;
      } catch {
        return false; // expected: no engine reachable, callers treat it as unavailable
      }
    },
    async create(spec: ContainerCreateSpec): Promise<string> {
      return (await docker.createContainer(toCreateOptions(spec))).id;
    },
    async start(id: string): Promise<void> {
      await tolerate([304], () => docker.getContainer(id).start());
    },
    async inspect(idOrName: string): Promise<ContainerState | undefined> {
      try {
        const info = await docker.getContainer(idOrName).inspect();
        return {
          id: info.Id,
          name: info.Name.replace(/^\//, ''),
          running: info.State.Running,
          paused: info.State.Paused,
          exitCode: info.State.Running ? null : info.State.ExitCode,
          labels: { ...(info.Config.Labels ?? {}) },
          ...(info.State.Running && info.State.Pid > 0 ? { pid: info.State.Pid } : {}),
          host: {
            networkMode: info.HostConfig.NetworkMode ?? '',
            capDrop: [...(info.HostConfig.CapDrop ?? [])],
            securityOpt: [...(info.HostConfig.SecurityOpt ?? [])],
            readonlyRootfs: info.HostConfig.ReadonlyRootfs === true,
          },
        };
      } catch (err) {
        if (statusOf(err) === 404) return undefined;
        throw err;
      }
    },
    async wait(id: string): Promise<number> {
      const res = (await docker.getContainer(id).wait()) as { StatusCode?: number };
      return res.StatusCode ?? -1;
    },
    async stop(id: string, graceSeconds: number): Promise<void> {
      await tolerate([304, 404], () => docker.getContainer(id).stop({ t: graceSeconds }));
    },
    async remove(id: string): Promise<void> {
      await tolerate([404, 409], () => docker.getContainer(id).remove({ force: true, v: true }));
    },
    async pause(id: string): Promise<void> {
      await docker.getContainer(id).pause();
    },
    async unpause(id: string): Promise<void> {
      await docker.getContainer(id).unpause();
    },
    async logs(id, onChunk: (stream: LogStream, chunk: Buffer) => void, opts): Promise<LogFollow> {
      const stream = (await docker
        .getContainer(id)
        .logs({ follow: true, stdout: true, stderr: true, since: opts.sinceSeconds })) as NodeJS.ReadableStream & {
        destroy?: () => void;
      };
      const demux = new LogDemuxer(onChunk);
      stream.on('data', (chunk: Buffer) => demux.push(chunk));
      stream.on('end', () => opts.onEnd?.());
      stream.on('error', () => opts.onEnd?.());
      return { close: () => stream.destroy?.() };
    },
    async listByLabels(labels): Promise<readonly ContainerSummary[]> {
      const filters = { label: Object.entries(labels).map(([k, v]) => `${k}=${v}`) };
      const list = await docker.listContainers({ all: true, filters: JSON.stringify(filters) });
      return list.map((c) => ({ id: c.Id, names: c.Names.map((n) => n.replace(/^\//, '')), state: c.State, labels: { ...c.Labels } }));
    },
    async hasImage(ref: string): Promise<boolean> {
      try {
        await docker.getImage(ref).inspect();
        return true;
      } catch (err) {
        if (statusOf(err) === 404) return false;
        throw err;
      }
    },
  };
}
