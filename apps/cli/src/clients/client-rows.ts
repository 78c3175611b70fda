import { CODING_CLIENTS, CODING_CLIENT_NAMES, listInstalledVersions, resolveInstalledClient } from '@genswarms/runners';
import type { CodingClientName, InstalledClientResolution } from '@genswarms/runners';
import { probeClientVersion } from './version-probe';

/** One installed version of a client (or one row saying none is), as `clients list` and `doctor` show it. */
export interface ClientRow {
  readonly name: CodingClientName;
  /** null: nothing installed for this client. */
  readonly version: string | null;
  readonly pinned_version: string;
  /** `ok` = resolves and `--version` prints its version. */
  readonly state: 'ok' | 'not_installed' | 'not_runnable' | Exclude<InstalledClientResolution['kind'], 'ok'>;
  readonly binary: string | null;
  /** The `--version` line when it runs, else why not. */
  readonly detail: string;
}

/** Every installed version of every client under `clientsDir`, each resolved and run with `--version`. */
export async function listClientRows(clientsDir: string, names: readonly CodingClientName[] = CODING_CLIENT_NAMES): Promise<ClientRow[]> {
  const rows: ClientRow[] = [];
  for (const name of names) {
    const versions = listInstalledVersions(clientsDir, name);
    if (versions.length === 0) {
      rows.push(notInstalled(clientsDir, name));
      continue;
    }
    for (const version of versions) rows.push(await clientRow(clientsDir, name, version));
  }
  return rows;
}

/** The row of one version: resolution, then a `--version` run. */
export async function clientRow(clientsDir: string, name: CodingClientName, version: string): Promise<ClientRow> {
  const pinned_version = CODING_CLIENTS[name].pinnedVersion;
  const resolved = resolveInstalledClient(clientsDir, name, { version });
  if (resolved.kind !== 'ok') return { name, version, pinned_version, state: resolved.kind, binary: null, detail: resolved.reason };
  const probe = await probeClientVersion(resolved.client);
  return probe.kind === 'ok'
    ? { name, version, pinned_version, state: 'ok', binary: resolved.client.binary, detail: probe.line }
    : { name, version, pinned_version, state: 'not_runnable', binary: resolved.client.binary, detail: probe.reason };
}

export function notInstalled(clientsDir: string, name: CodingClientName): ClientRow {
  return {
    name,
    version: null,
    pinned_version: CODING_CLIENTS[name].pinnedVersion,
    state: 'not_installed',
    binary: null,
    detail: `not installed in ${clientsDir} (genswarms clients install ${name})`,
  };
}
