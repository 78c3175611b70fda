import type { CodingClientName } from '../coding-clients';
import type { ClientAdapter } from './client-adapter';
import { CLAUDE_ADAPTER } from './claude-adapter';
import { CODEX_ADAPTER } from './codex-adapter';
import { OPENCODE_ADAPTER } from './opencode-adapter';

/** One row per published client (docs/clients.md): a fourth client is one module and one row here. */
export const CLIENT_ADAPTERS: Readonly<Record<CodingClientName, ClientAdapter>> = {
  codex: CODEX_ADAPTER,
  claude: CLAUDE_ADAPTER,
  opencode: OPENCODE_ADAPTER,
};
