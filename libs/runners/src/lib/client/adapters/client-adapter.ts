/**
 * The client adapter interface (docs/clients.md "What genswarms writes"): how one published coding client is
 * told its endpoint, key and model, which first-run state it needs so that nothing waits for a person, and
 * its argv in a pane and for one headless turn. Pure: a fourth client is one more module and one more row of
 * CLIENT_ADAPTERS.
 */
import type { CodingClientName } from '../coding-clients';
import type { EndpointApi } from '../endpoint-api';

/** The variable that holds the key in the client's environment: adapters name it, never copy its value. */
export const CLIENT_KEY_ENV = 'GENSWARMS_LLM_API_KEY';

/** The endpoint as the client reaches it. */
export interface ClientEndpoint {
  /** URL as the client sees it (`network: isolated`: the in-sandbox bridge `http://127.0.0.1:17080…`); no query. */
  readonly url: string;
  /** `Host` header to send instead of the URL's (isolated: the upstream host behind the bridge). */
  readonly hostHeader?: string;
  /** True when CLIENT_KEY_ENV is set for the client. */
  readonly hasKey: boolean;
}

export interface ClientAdapterInput {
  /** Absent: no endpoint reaches the agent, the client keeps its vendor defaults (a person may sign in in a pane). */
  readonly endpoint?: ClientEndpoint;
  readonly model?: string;
  /** The workspace as the client sees it (`/workspace` in a sandbox). */
  readonly workspace: string;
  /** HOME as the client sees it (`/root` in a sandbox, else the host state_dir). */
  readonly home: string;
  readonly unsafeBypass: boolean;
  /** Inside a genswarms sandbox (bwrap, docker): the sandbox is the boundary, a client's own one is not nested. */
  readonly sandboxed: boolean;
}

/** A file genswarms writes into the agent's HOME (0600, owned by the agent); never holds a key. */
export interface ClientHomeFile {
  /** Relative to HOME, `/`-separated, no `.` or `..` component. */
  readonly path: string;
  readonly content: string;
}

export interface ClientSetup {
  readonly homeFiles: readonly ClientHomeFile[];
  /** Directories (relative to HOME) created 0700 before the client starts. */
  readonly homeDirs: readonly string[];
  /** Variables added to the client's environment (never a key). */
  readonly env: Readonly<Record<string, string>>;
  /** Words after the executable in a pane (TUI). */
  readonly paneArgs: readonly string[];
  /** Words after the executable for one headless turn; the prompt is appended as the last word. */
  readonly headlessArgs: readonly string[];
}

export interface ClientAdapter {
  readonly name: CodingClientName;
  /** The one wire protocol the client speaks. */
  readonly api: EndpointApi;
  /** True when the client cannot use an endpoint without a key (it would ask a person to sign in). */
  readonly needsKey: boolean;
  /** True when an endpoint is unusable without `model` (the provider entry names one model). */
  readonly needsModel: boolean;
  /** Why this input cannot be written safely for the client (a sentence), or undefined. */
  refuse?(input: ClientAdapterInput): string | undefined;
  setup(input: ClientAdapterInput): ClientSetup;
}

/** The URL's path without trailing slashes (`''` for the root). */
export function trimmedPath(url: URL): string {
  return url.pathname.replace(/\/+$/, '');
}

/**
 * The base URL an OpenAI-style client appends `/responses` or `/chat/completions` to: a path that already
 * ends in one of them is cut back, an empty path becomes `/v1` (the isolated bridge, a bare origin).
 */
export function openAiBaseUrl(endpoint: string): string {
  const url = new URL(endpoint);
  const path = trimmedPath(url).replace(/\/(chat\/completions|responses)$/, '');
  return `${url.origin}${path === '' ? '/v1' : path}`;
}

/** The base URL Claude Code appends `/v1/messages` to: a trailing `/v1/messages` or `/v1` is cut off. */
export function anthropicBaseUrl(endpoint: string): string {
  const url = new URL(endpoint);
  const path = trimmedPath(url).replace(/\/v1(\/messages)?$/, '');
  return `${url.origin}${path}`;
}

/** Private temporary directory of a client on the host (Codex refuses a TMPDIR that holds its HOME). */
export const HOST_TMP_DIR = '.tmp';

/**
 * `TMPDIR` for a client: HOME/.tmp (created 0700) on the host; in a sandbox the private /tmp stays unless
 * `inSandbox` (a container's /tmp is mounted noexec, and OpenCode's TUI loads a library it unpacks there).
 */
export function hostTmpEnv(input: ClientAdapterInput, inSandbox = false): { env: Record<string, string>; dirs: string[] } {
  if (input.sandboxed && !inSandbox) return { env: {}, dirs: [] };
  return { env: { TMPDIR: `${input.home.replace(/\/+$/, '')}/${HOST_TMP_DIR}` }, dirs: [HOST_TMP_DIR] };
}
