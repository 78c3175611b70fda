/** Deletes a swarm's default workspaces and state dirs — never a workspace named in the config. */
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';

function configuredWorkspaces(config: unknown): string[] {
  const agents = (config as { agents?: { workspace?: unknown }[] } | undefined)?.agents ?? [];
  return agents.map((a) => a.workspace).filter((w): w is string => typeof w === 'string').map((w) => path.resolve(w));
}

function overlaps(a: string, b: string): boolean {
  const rel = path.relative(a, b);
  const rel2 = path.relative(b, a);
  return rel === '' || !rel.startsWith('..') || !rel2.startsWith('..');
}

export async function purgeSwarmFiles(home: string, swarm: string, config: unknown): Promise<void> {
  const named = configuredWorkspaces(config);
  for (const dir of [path.join(home, 'workspaces', swarm), path.join(home, 'state', swarm)]) {
    // expected: no such directory, nothing to purge
    const st = await fsp.lstat(dir).catch(() => undefined);
    if (st === undefined || !st.isDirectory()) continue;
    if (named.some((w) => overlaps(dir, w))) {
      for (const entry of await fsp.readdir(dir)) {
        const child = path.join(dir, entry);
        if (!named.some((w) => overlaps(child, w))) await fsp.rm(child, { recursive: true, force: true });
      }
      continue;
    }
    await fsp.rm(dir, { recursive: true, force: true });
  }
}
