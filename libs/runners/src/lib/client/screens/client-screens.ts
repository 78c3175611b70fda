import type { CodingClientName } from '../coding-clients';
import { CLAUDE_SCREEN } from './claude-screen';
import { CODEX_SCREEN } from './codex-screen';
import { OPENCODE_SCREEN } from './opencode-screen';
import type { ClientScreenRules } from './screen-rules';

/** One entry per published client: the place a fourth client's screens are added. */
export const CLIENT_SCREENS: Readonly<Record<CodingClientName, ClientScreenRules>> = {
  codex: CODEX_SCREEN,
  claude: CLAUDE_SCREEN,
  opencode: OPENCODE_SCREEN,
};

/**
 * Which screen rules a client gets, by its display name (`SessionDescription.client`): the published clients'
 * entries; none for `command` and `genswarms-agent` clients (their pastes are sent as before: text, then Enter).
 */
export type ScreenRulesResolver = (client: string) => ClientScreenRules | undefined;

export const defaultScreenRules: ScreenRulesResolver = (client) =>
  client === 'codex' || client === 'claude' || client === 'opencode' ? CLIENT_SCREENS[client] : undefined;
