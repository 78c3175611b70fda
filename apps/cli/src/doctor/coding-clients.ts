import { CODING_CLIENTS, CODING_CLIENT_NAMES, listInstalledVersions } from '@genswarms/runners';
import { CliError } from '../cli/exit-codes';
import { clientRow } from '../clients/client-rows';
import { clientsDirOf } from '../clients/clients-dir';
import type { Check } from './probes';

type Env = Readonly<Record<string, string | undefined>>;

/** One line per coding client: its pinned version installed by genswarms, resolved, and `--version` run. */
export async function checkCodingClients(env: Env, cwd: string): Promise<Check[]> {
  let dir: string;
  try {
    dir = clientsDirOf(env, cwd).dir;
  } catch (err) {
    if (!(err instanceof CliError)) throw err;
    return [{ name: 'clients', status: 'problem', detail: `${err.message}; no client can be found` }];
  }
  return Promise.all(
    CODING_CLIENT_NAMES.map(async (name): Promise<Check> => {
      const pinned = CODING_CLIENTS[name].pinnedVersion;
      const row = await clientRow(dir, name, pinned);
      const check = `client ${name}`;
      if (row.state === 'ok') return { name: check, status: 'ok', detail: `${row.detail} at ${row.binary ?? ''}` };
      if (row.state !== 'missing') return { name: check, status: 'problem', detail: `${pinned}: ${row.state}: ${row.detail}` };
      const others = listInstalledVersions(dir, name).filter((v) => v !== pinned);
      const also = others.length === 0 ? '' : `; installed: ${others.join(', ')}`;
      return {
        name: check,
        status: 'missing',
        detail: `pinned ${pinned} not installed in ${dir} (genswarms clients install ${name})${also}`,
      };
    }),
  );
}
