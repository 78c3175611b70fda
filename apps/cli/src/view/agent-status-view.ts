/** An agent as `GET /api/swarms/:s/agents` answers it (docs/rest-api.md, status shapes); every field is checked before use. */
export interface AgentStatusView {
  name?: unknown;
  state?: unknown;
  backend?: unknown;
  client?: unknown;
  network?: unknown;
  inbox_size?: unknown;
  awaiting?: unknown;
  turn?: unknown;
  turn_started_at?: unknown;
  /** `details` (client_prompt_blocked): `dialog`, `stage`, `last_lines` of the client's screen. */
  needs_attention?: { reason?: unknown; turn?: unknown; details?: unknown } | null;
  /** Why a `failed` agent failed (docs/rest-api.md): the server's code, sentence and detail fields. */
  failure?: { code?: unknown; message?: unknown; details?: Readonly<Record<string, unknown>> | null } | null;
  last_activity?: unknown;
  /** ssh agents only: false with `silently_accept_hosts: true` (docs/security.md "ssh trust model"). */
  host_key_verified?: unknown;
}
