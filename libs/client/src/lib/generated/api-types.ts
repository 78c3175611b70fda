// Generated from docs/openapi.json by libs/client/codegen/generate-types.ts: do not edit.
// Regenerate with `npm run gen-types -w @genswarms/client`.

/** Every component schema of the OpenAPI document. */
export interface Schemas {
  AckFailure: {
    /** snake_case error code */
    error: string;
    /** One sentence */
    message: string;
    ok: false;
    [key: string]: unknown;
  };
  AddAgentCommand: {
    /** Name of the new agent */
    name: string;
    /** Nodes the new agent may send to */
    connections?: string[];
    /** Nodes that may send to the new agent */
    incoming?: string[];
    [key: string]: unknown;
  };
  AddObjectCommand: {
    /** Name of the new object */
    name: string;
    /** Nodes the new object may send to */
    connections?: unknown[];
    /** Nodes that may send to the new object */
    incoming?: unknown[];
    [key: string]: unknown;
  };
  /** An agent’s git work: committed and uncommitted */
  AgentChanges: {
    /** The commit the clone started from */
    base: string;
    /** What is compared with base: the snapshot of the working tree, else the branch head */
    head: string;
    /** The agent’s branch (genswarms/<swarm>/<agent>) */
    branch: string;
    /** The agent’s branch head (base when it committed nothing) */
    branch_head: string;
    /** The working tree differs from the branch head */
    uncommitted: boolean;
    /** Files changed from base, committed and not */
    files: Array<{
      /** Path (control characters and bytes that are not UTF-8 shown as \xNN, a backslash as \\) */
      path: string;
      /** What happened to the file */
      status: 'added' | 'modified' | 'deleted' | 'type_changed';
      /** Lines added (null: binary) */
      additions: number | null;
      /** Lines deleted (null: binary) */
      deletions: number | null;
    }>;
    /** Commits on the branch since base, newest first */
    commits: Array<{
      /** Commit id */
      sha: string;
      /** Author name as the agent wrote it (control characters replaced) */
      author: string;
      /** Author date (ISO 8601) */
      date: string;
      /** First line of the message (control characters replaced) */
      subject: string;
    }>;
    /** A limit cut the list or the working tree snapshot */
    truncated: boolean;
    /** Objects or files left out (links to nowhere, FIFOs, oversize, corrupt) */
    skipped: number;
  };
  AgentFailure: {
    /** snake_case failure code (binary_missing, image_missing, start_failed, process_exited, …) */
    code: string;
    /** One sentence: what was missing, where it was looked for, what to do */
    message: string;
    /** Detail fields (names, the search PATH, the image); never secrets */
    details: {
      [key: string]: unknown;
    };
  };
  /** The unified diff of an agent’s git work */
  AgentGitDiff: {
    /** Commit id */
    base: string;
    /** Commit id */
    head: string;
    /** Unified diff (or --stat), cut with a note past the size limit */
    diff: string;
    truncated: boolean;
  };
  /** What an agent received and sent */
  AgentHistory: {
    history: Schemas['HistoryEntry'][];
  };
  /** Agents of a swarm */
  AgentList: {
    agents: Schemas['AgentStatus'][];
  };
  /** Recent output lines of an agent */
  AgentLogs: {
    logs: Schemas['LogLine'][];
  };
  /** An agent restarted */
  AgentRestarted: {
    /** Outcome */
    status: 'restarted';
    agent: string;
  };
  /** An agent resumed */
  AgentResumed: {
    /** Outcome */
    status: 'resumed';
    agent: string;
    /** busy: the agent goes on with the turn that was open when it was held */
    state: 'idle' | 'busy';
  };
  /** A TUI agent's pane text now (scrollback and screen, plain text, one string per line); null for a headless or stopped agent */
  AgentScreen: {
    screen: string[] | null;
  };
  AgentStatus: {
    /** Agent name */
    name: string;
    /** Swarm name */
    swarm: string;
    /** starting, idle, busy, needs_attention, failed or stopped */
    state: string;
    /** Runner backend */
    backend: string;
    /** Client label */
    client: string;
    /** Network mode */
    network: string;
    /** Queued inbox items */
    inbox_size: number;
    /** Waiting for an ask reply */
    awaiting: boolean;
    /** Current turn id */
    turn: string | null;
    /** Start of the current turn (ISO 8601), null when unknown */
    turn_started_at: string | null;
    needs_attention: Schemas['AttentionInfo'] | null;
    failure: Schemas['AgentFailure'] | null;
    /** Session start (ISO 8601), null when unknown */
    started_at: string | null;
    /** Last activity (ISO 8601), null when unknown */
    last_activity: string | null;
    /** Read from the live process (not the config); null when not checked */
    isolation: Schemas['Isolation'] | null;
    /** LLM usage through the metering egress (network: isolated agents), kept across restarts until the swarm is purged */
    llm_usage: Schemas['LlmUsage'];
    /** ssh agents only: false when backend.opts.silently_accept_hosts is true (the host key is not verified) */
    host_key_verified?: boolean;
    /** Git workspaces only: the agent’s branch, genswarms/<swarm>/<agent> */
    git_branch?: string;
  };
  /** The API descriptor */
  ApiDescriptor: {
    name: 'genswarms';
    /** Server version */
    version: string;
    /** "METHOD /path" of every route */
    endpoints: string[];
    /** socket.io path and namespace */
    websocket: {
      path: string;
      namespace: string;
    };
  };
  AttentionInfo: {
    /** Why the agent needs attention */
    reason: string;
    /** Turn id, if any */
    turn: string | null;
    /** What a stuck TUI client showed (docs/clients.md "Pane mode"); absent after a server restart */
    details?: {
      /** client_prompt_blocked: the name of the dialog the client shows */
      dialog?: string;
      /** client_prompt_blocked: not_ready, paste_not_shown or enter_not_taken */
      stage?: string;
      /** The client screen's last lines (at most 20, secrets replaced) */
      last_lines?: string[];
    };
  };
  BudgetPatchCommand: {
    /** The new budget (replaces the old one); null removes it */
    budget?: {
      /** LLM calls allowed per window (positive integer) */
      requests?: number;
      /** Tokens (prompt + completion) allowed per window */
      tokens?: number;
      /** Budget window: an ISO-8601 duration (PT1H, P1D, P2W); absent = for the life of the agent (or swarm) */
      window?: string;
    } | null;
    /** The new rate limit (replaces the old one); null removes it */
    rate_limit?: {
      /** LLM calls per minute (positive integer) */
      requests_per_minute?: number;
      /** Tokens per minute (positive integer) */
      tokens_per_minute?: number;
    } | null;
  };
  /** The LLM limits were changed */
  BudgetUpdated: {
    /** Outcome */
    status: 'updated';
    swarm: string;
    /** Agents whose limits changed (a scaled group changes together); empty for the swarm */
    agents: string[];
    /** The budget in force now */
    budget: {
      /** LLM calls allowed per window (positive integer) */
      requests?: number;
      /** Tokens (prompt + completion) allowed per window */
      tokens?: number;
      /** Budget window: an ISO-8601 duration (PT1H, P1D, P2W); absent = for the life of the agent (or swarm) */
      window?: string;
    } | null;
    /** The rate limit in force now */
    rate_limit: {
      /** LLM calls per minute (positive integer) */
      requests_per_minute?: number;
      /** Tokens per minute (positive integer) */
      tokens_per_minute?: number;
    } | null;
  };
  /** The config would be refused: an error body with valid:false */
  ConfigInvalid: {
    /** snake_case error code */
    error: string;
    /** One sentence */
    message: string;
    valid: false;
    [key: string]: unknown;
  };
  ConfigSummary: {
    /** Swarm name */
    name: string;
    agent_count: number;
    object_count: number;
    edge_count: number;
    agents: string[];
    objects: string[];
  };
  /** The config would start */
  ConfigValid: {
    valid: true;
    /** json, yaml or yml */
    format: string;
    /** What a valid config would start */
    config: Schemas['ConfigSummary'];
  };
  EmptyCommand: Record<string, never>;
  ErrorBody: {
    /** snake_case error code */
    error: string;
    /** One sentence */
    message: string;
    [key: string]: unknown;
  };
  /** One page of events */
  EventPage: {
    events: Schemas['StoredEvent'][];
    count: number;
    /** The query as parsed */
    query: {
      /** Event level */
      level?: 'debug' | 'info' | 'warning' | 'error';
      /** Event category */
      category?: 'swarm' | 'agent' | 'object' | 'routing' | 'backend' | 'system';
      swarm?: string;
      agent?: string;
      event_type?: string;
      minutes?: number;
      limit: number;
      since_id?: number;
    };
  };
  EventQueryCommand: {
    /** Only events of this level */
    level?: 'debug' | 'info' | 'warning' | 'error';
    /** Only events of this category */
    category?: 'swarm' | 'agent' | 'object' | 'routing' | 'backend' | 'system';
    /** Only events of this swarm */
    swarm?: string;
    /** Only events of this agent or object */
    agent?: string;
    /** Only events of this type */
    event_type?: string;
    /** Only events of the last N minutes */
    minutes?: number;
    /** At most this many events (default 100) */
    limit?: number;
    /** Only events after this id, oldest first */
    since_id?: number;
  };
  EventsCommand: {
    /** Filter set {level?, category?, event_type?, agent?}; omitted = all events */
    filters?: unknown;
  };
  GitFetchCommand: {
    /** Agents to fetch (default: every agent with a git workspace) */
    agents?: string[];
    /** Take the working tree too, as a commit made by the host */
    include_uncommitted?: boolean;
  };
  /** What a fetch took into the operator’s repository */
  GitWorkFetched: {
    fetched: Array<{
      agent: string;
      /** Branch created or moved in the operator’s repository */
      branch: string;
      /** Commit id */
      commit: string;
      /** The commit is the host’s snapshot of the working tree */
      uncommitted: boolean;
    }>;
    failed: Array<{
      agent: string;
      error: string;
      message: string;
    }>;
  };
  /** The process answers */
  HealthStatus: {
    status: 'ok';
  };
  HistoryEntry:
    | {
        direction: 'received';
        /** When (ISO 8601) */
        timestamp: string;
        /** Inbox item id */
        id: string;
        /** Item kind */
        kind: 'task' | 'message';
        /** Sender */
        from: string;
        /** Start of the content */
        content_preview: string;
        /** Turn that handled it */
        turn: string | null;
        /** queued, or the turn status */
        status: string;
      }
    | {
        direction: 'sent';
        /** When (ISO 8601) */
        timestamp: string;
        /** Message-log id */
        id: number;
        /** Message type */
        type: 'direct' | 'ask' | 'broadcast';
        /** Recipient, or recipients of a broadcast */
        to: string | string[];
        /** Start of the content */
        content_preview: string;
        /** Turn it was sent in */
        turn: string | null;
      };
  Isolation: {
    /** When the live process was read (ISO 8601) */
    verified_at: string;
    /** The process inspected: the client inside its boundary, or the host client */
    pid: number;
    /** Namespaces it does not share with the server (/proc/<pid>/ns) */
    namespaces: Array<'cgroup' | 'ipc' | 'mnt' | 'net' | 'pid' | 'user' | 'uts'>;
    /** NoNewPrivs from /proc/<pid>/status */
    no_new_privs: boolean;
    /** Seccomp mode from /proc/<pid>/status */
    seccomp: 'disabled' | 'strict' | 'filter';
    /** host: the server's network namespace; loopback: its own with only lo; none: no interface; own: its own with others */
    network: 'host' | 'loopback' | 'none' | 'own';
    /** network isolated: the host forwarder pin host:port */
    egress?: string;
    /** cgroup limits in force on the process (absent: unlimited) */
    limits: {
      /** memory limit in force (bytes) */
      memory_bytes?: number;
      /** process limit in force */
      pids?: number;
      /** CPU quota in force (CPUs) */
      cpu?: number;
    };
    /** The mounts that matter, from /proc/<pid>/mountinfo */
    mounts: {
      /** The workspace as the client sees it */
      workspace: 'rw' | 'ro' | 'absent';
      /** The state dir (the client's HOME) */
      state_dir: 'rw' | 'ro' | 'absent';
      /** The process's / is the server's root filesystem */
      host_root_visible: boolean;
    };
    /** Bypass flags on the live argv */
    bypass_flags: string[];
    /** docker: what the engine applied (inspect) */
    docker?: {
      /** HostConfig.NetworkMode */
      network_mode: string;
      /** HostConfig.CapDrop */
      cap_drop: string[];
      /** HostConfig.SecurityOpt */
      security_opt: string[];
      /** HostConfig.ReadonlyRootfs */
      readonly_rootfs: boolean;
    };
    /** Empty when the process matches its plan; else the session is needs_attention (isolation_mismatch) */
    differences: Array<{
      /** What differs */
      field: string;
      /** The plan */
      expected: string;
      /** The process */
      actual: string;
    }>;
  };
  JoinCommand: {
    /** Swarm name */
    swarm: string;
  };
  LlmRequestEntry: {
    /** Entry id (page back with ?before=<id>) */
    id: number;
    /** When the call arrived (ISO 8601) */
    at: string;
    /** HTTP method ("-" when the request line was unreadable) */
    method: string;
    /** Request path without its query ("-" when unreadable) */
    path: string;
    /** The LLM's status, the egress's own (429, 400…), or null when no answer came */
    status: number | null;
    /** From the request to the last byte of the answer */
    duration_ms: number;
    /** Request bytes sent to the LLM */
    bytes_in: number;
    /** Response bytes relayed to the agent */
    bytes_out: number;
    /** Prompt tokens */
    prompt_tokens?: number;
    /** Completion tokens */
    completion_tokens?: number;
    /** Total tokens */
    total_tokens?: number;
    /** How the tokens were known */
    usage?: 'reported' | 'estimated' | 'untrusted';
    /** Why the egress answered itself */
    refused_by?: 'budget' | 'rate_limit' | 'protocol';
    /** How the call failed or why it was malformed */
    failure?: string;
  };
  /** An agent's LLM calls, newest first */
  LlmRequestList: {
    requests: Schemas['LlmRequestEntry'][];
    /** The `before` of the next (older) page; null on the last */
    next_before: number | null;
  };
  LlmUsage: {
    /** Calls forwarded to the LLM */
    requests: number;
    /** Calls the egress answered itself (over budget or rate, malformed) */
    refused: number;
    /** Prompt (input) tokens */
    prompt_tokens: number;
    /** Completion (output) tokens */
    completion_tokens: number;
    /** Total tokens */
    total_tokens: number;
  };
  LogEntry: {
    /** Event id (increasing) */
    id: number;
    /** When (ISO 8601) */
    timestamp: string;
    /** Event level */
    level: 'debug' | 'info' | 'warning' | 'error';
    /** Agent or object, if any */
    agent: string | null;
    /** snake_case event type */
    event_type: string;
    /** One line */
    message: string;
    /** Event details (secrets redacted) */
    metadata: {
      [key: string]: unknown;
    };
  };
  LogLine: {
    /** When (ISO 8601) */
    timestamp: string;
    /** Stream */
    stream: 'stdout' | 'stderr';
    /** Text */
    line: string;
  };
  LogsCommand: {
    /** One agent; omitted = every agent */
    agent?: string;
  };
  MessageCommand: {
    /** Sender name (an agent, an object or any operator label) */
    from: string;
    /** Recipient agent or object */
    to: string;
    /** Message text */
    content: string;
  };
  /** The message log, newest first */
  MessageList: {
    messages: Schemas['MessageRow'][];
  };
  /** A message was routed */
  MessageRouted: {
    /** Outcome */
    status: 'routed';
    from: string;
    to: string;
    swarm: string;
  };
  MessageRow: {
    /** Message-log id */
    id: number;
    /** When (ISO 8601) */
    timestamp: string;
    /** Swarm */
    swarm: string;
    /** Sender */
    from: string;
    /** Recipient, or recipients of a broadcast */
    to: string | string[];
    /** Message type */
    type: 'direct' | 'ask' | 'broadcast';
    /** Start of the content */
    content_preview: string;
    /** Turn it was sent in */
    turn: string | null;
  };
  /** An agent or object was added */
  NodeAdded: {
    /** Outcome */
    status: 'added';
    name: string;
  };
  /** An agent or object was removed */
  NodeRemoved: {
    /** Outcome */
    status: 'removed';
    name: string;
  };
  /** Not ready, or shutting down */
  NotReadyStatus: {
    status: 'not_ready';
  };
  ObjectConfigPatchCommand: {
    /** Partial object config; merged over the current one */
    config: unknown;
  };
  /** An object's config was patched */
  ObjectConfigUpdated: {
    /** Outcome */
    status: 'updated';
    object: string;
    /** Keys changed */
    keys: string[];
  };
  /** One object with its config */
  ObjectDetail: {
    object: {
      name: string;
      handler: string;
      /** Object config (redacted) */
      config: unknown;
    };
    state: string;
  };
  /** Objects of a swarm */
  ObjectList: {
    objects: Schemas['ObjectStatus'][];
  };
  ObjectStatus: {
    /** Object name */
    name: string;
    /** Handler */
    handler: string;
    /** State */
    state: string;
  };
  /** An OpenAPI 3.1 document */
  OpenApiDocument: {
    /** 3.1.x */
    openapi: string;
    info: {
      title: string;
      version: string;
      [key: string]: unknown;
    };
    paths: {
      [key: string]: unknown;
    };
    [key: string]: unknown;
  };
  /** The overlay was cleared */
  OverlayCleared: {
    /** Outcome */
    status: 'cleared';
    swarm: string;
  };
  /** The overlay */
  OverlayView: {
    swarm: string;
    /** Overlay events (redacted) */
    events: unknown[];
  };
  /** A swarm was paused or resumed */
  PauseResult: {
    /** Outcome */
    status: 'paused' | 'resumed';
    swarm_name: string;
    /** Containers paused or resumed */
    containers: number;
    /** Agents that are not docker-backed, untouched */
    skipped: string[];
  };
  /** The store answers and the runners were probed */
  ReadyStatus: {
    status: 'ready';
  };
  ScaleCommand: {
    /** Wanted number of instances of the base agent */
    count: number;
  };
  /** An agent group was scaled */
  ScaleResult: {
    /** Outcome */
    status: 'ok';
    result: {
      added: string[];
      removed: string[];
      failed: Array<{
        name: string;
        reason: string;
      }>;
    };
  };
  /** One page of the events of a swarm or agent */
  ScopedEventPage: {
    events: Schemas['StoredEvent'][];
    count: number;
    swarm: string;
    agent?: string;
  };
  /** One skill */
  SkillDocument: {
    name: string;
    content: string;
    /** Bytes */
    size: number;
  };
  SkillEntry: {
    /** Skill name */
    name: string;
    /** Path in the catalogue */
    relative_path: string;
    category: string;
  };
  /** The skills catalogue */
  SkillList: {
    skills: Schemas['SkillEntry'][];
    count: number;
  };
  /** The effective swarm config, seed ⊕ overlay (redacted) */
  Snapshot: {
    [key: string]: unknown;
  };
  /** The swarm detail */
  SocketAck_get_status: {
    /** Success */
    ok: true;
    /** One swarm with its agents, objects and topology (redacted) */
    status: Schemas['SwarmDetail'];
  };
  /** Joined the swarm room */
  SocketAck_join: {
    /** Success */
    ok: true;
    swarm: string;
  };
  /** The task was queued */
  SocketAck_send_task: {
    /** Outcome */
    status: 'sent';
    /** Inbox item id */
    id: string;
    /** Items queued before this one */
    queued: number;
    /** Success */
    ok: true;
  };
  /** Subscribed to events */
  SocketAck_subscribe_events: {
    /** Success */
    ok: true;
    subscribed: true;
    /** The filter set as parsed */
    filters: {
      [key: string]: string;
    };
    /** ≤ 50, oldest first */
    recent_events: Schemas['StoredEvent'][];
  };
  /** Subscribed to log entries */
  SocketAck_subscribe_logs: {
    /** Success */
    ok: true;
    subscribed: true;
    agent: string | null;
    /** ≤ 50, oldest first */
    recent_logs: Schemas['LogEntry'][];
  };
  /** Dropped every event subscription */
  SocketAck_unsubscribe_events: {
    /** Success */
    ok: true;
    unsubscribed: true;
  };
  /** Unsubscribed from log entries */
  SocketAck_unsubscribe_logs: {
    /** Success */
    ok: true;
    unsubscribed: true;
    agent: string | null;
  };
  /** An agent was added */
  SocketPush_agent_added: {
    name: string;
    /** Agent config (redacted) */
    spec: unknown;
  };
  /** Agent output */
  SocketPush_agent_output: {
    agent: string;
    stream: 'stdout' | 'stderr';
    content: string;
  };
  /** An agent was removed */
  SocketPush_agent_removed: {
    name: string;
  };
  /** An agent changed state */
  SocketPush_agent_status: {
    agent: string;
    state: string;
    previous: string | null;
  };
  /** One stored event (redacted) */
  SocketPush_event: Schemas['StoredEvent'];
  /** One event in the log shape (socket.io log_entry) */
  SocketPush_log_entry: Schemas['LogEntry'];
  /** A message was broadcast */
  SocketPush_message_broadcast: {
    timestamp: string;
    swarm: string;
    from: string;
    content_preview: string;
    to: string[];
    type: 'broadcast';
  };
  /** A message was routed */
  SocketPush_message_routed: {
    timestamp: string;
    swarm: string;
    from: string;
    content_preview: string;
    to: string;
    type: 'direct' | 'ask';
  };
  /** An agent needs an operator */
  SocketPush_needs_attention: {
    agent: string;
    turn: string | null;
    reason: string;
  };
  /** A swarm started */
  SocketPush_swarm_started: {
    swarm: string;
    status: 'running' | 'error';
  };
  /** A swarm stopped */
  SocketPush_swarm_stopped: {
    swarm: string;
  };
  /** The topology changed */
  SocketPush_topology_changed: {
    topology: Schemas['TopologyEntry'][];
  };
  /** A turn ended */
  SocketPush_turn_completed: {
    agent: string;
    turn: string;
    status: 'completed' | 'error' | 'timed_out';
    error?: string;
    reply_preview: string | null;
  };
  SocketTaskCommand: {
    /** Agent name */
    agent: string;
    /** Task text */
    task: string;
  };
  StartSwarmCommand: {
    /** Inline swarm config object (docs/config.md) */
    config?: unknown;
    /** A .json/.yaml/.yml file inside GENSWARMS_SWARM_CONFIG_DIR */
    config_path?: unknown;
  };
  StoredEvent: {
    /** Event id (increasing) */
    id: number;
    /** When (ISO 8601) */
    timestamp: string;
    /** Event level */
    level: 'debug' | 'info' | 'warning' | 'error';
    /** Event category */
    category: 'swarm' | 'agent' | 'object' | 'routing' | 'backend' | 'system';
    /** Swarm, if any */
    swarm: string | null;
    /** Agent or object, if any */
    agent: string | null;
    /** snake_case event type */
    event_type: string;
    /** One line */
    message: string;
    /** Event details (secrets redacted) */
    metadata: {
      [key: string]: unknown;
    };
  };
  /** A swarm was started */
  SwarmCreated: {
    /** Outcome */
    status: 'created';
    swarm_name: string;
  };
  SwarmDetail: {
    /** Swarm name */
    name: string;
    /** Swarm status */
    status: 'starting' | 'running' | 'stopping' | 'stopped' | 'error';
    /** Start (ISO 8601), null when unknown */
    started_at: string | null;
    /** Agents */
    agent_count: number;
    /** Objects */
    object_count: number;
    /** Agents */
    agents: Schemas['AgentStatus'][];
    /** Objects */
    objects: Schemas['ObjectStatus'][];
    /** Topology */
    topology: Schemas['TopologyEntry'][];
    /** The LLM usage of every agent the swarm had, summed */
    llm_usage: Schemas['LlmUsage'];
  };
  /** Every swarm */
  SwarmList: {
    swarms: Schemas['SwarmSummary'][];
  };
  /** A swarm restarted */
  SwarmRestarted: {
    /** Outcome */
    status: 'restarted';
    swarm_name: string;
    /** Stored data was deleted */
    delete_data: boolean;
  };
  /** A swarm stopped */
  SwarmStopped: {
    /** Outcome */
    status: 'stopped' | 'purged';
    swarm_name: string;
  };
  SwarmSummary: {
    /** Swarm name */
    name: string;
    /** Swarm status */
    status: 'starting' | 'running' | 'stopping' | 'stopped' | 'error';
    /** Start (ISO 8601), null when unknown */
    started_at: string | null;
    /** Agents */
    agent_count: number;
    /** Objects */
    object_count: number;
    /** Agents per state; states with none left out */
    agents_by_state: {
      [key: string]: number;
    };
  };
  TaskCommand: {
    /** Task text for the agent */
    task: string;
  };
  /** A task was queued */
  TaskSent: {
    /** Outcome */
    status: 'sent';
    agent: string;
    /** Inbox item id */
    id: string;
    /** Items queued before this one */
    queued: number;
  };
  /** The topology */
  Topology: {
    topology: Schemas['TopologyEntry'][];
  };
  TopologyEntry: {
    /** Sender */
    from: string;
    /** Nodes it may send to */
    targets: string[];
  };
  TopologyPatchCommand: {
    /** Edges to add */
    add?: Array<
      | [string, string]
      | {
          /** A name: ^[a-zA-Z][a-zA-Z0-9_-]{0,63}$ */
          from: string;
          /** A name: ^[a-zA-Z][a-zA-Z0-9_-]{0,63}$ */
          to: string;
        }
    >;
    /** Edges to remove */
    remove?: Array<
      | [string, string]
      | {
          /** A name: ^[a-zA-Z][a-zA-Z0-9_-]{0,63}$ */
          from: string;
          /** A name: ^[a-zA-Z][a-zA-Z0-9_-]{0,63}$ */
          to: string;
        }
    >;
  };
  /** Edges added and removed */
  TopologyPatched: {
    /** Outcome */
    status: 'ok';
    added: number;
    removed: number;
  };
  TurnDetail: {
    /** Turn id */
    id: string;
    /** Inbox item id */
    item_id: string;
    /** Sender of the item */
    from: string;
    /** running, completed, error, rejected, timed_out or cancelled */
    status: string;
    /** Why it was rejected */
    reason?: string;
    /** Error text */
    error?: string;
    /** Start (ISO 8601) */
    started_at: string;
    /** End (ISO 8601), null when unknown */
    completed_at: string | null;
    /** Start of the reply */
    reply_preview: string | null;
    /** The whole reply (agent-written text, at most 1 MiB; never interpreted); null when none or stored before it was kept */
    reply: string | null;
  };
  /** Turns of an agent, newest first */
  TurnList: {
    turns: Schemas['TurnView'][];
  };
  TurnView: {
    /** Turn id */
    id: string;
    /** Inbox item id */
    item_id: string;
    /** Sender of the item */
    from: string;
    /** running, completed, error, rejected, timed_out or cancelled */
    status: string;
    /** Why it was rejected */
    reason?: string;
    /** Error text */
    error?: string;
    /** Start (ISO 8601) */
    started_at: string;
    /** End (ISO 8601), null when unknown */
    completed_at: string | null;
    /** Start of the reply */
    reply_preview: string | null;
  };
  /** Exactly one of {config}, {config_path} or {content, format} */
  ValidateConfigCommand:
    | {
        /** Inline swarm config object (docs/configuration.md) */
        config: unknown;
      }
    | {
        /** Path of a .json/.yaml/.yml file inside GENSWARMS_SWARM_CONFIG_DIR (docs/security.md) */
        config_path: unknown;
      }
    | {
        /** Config text */
        content: string;
        /** json, yaml or yml */
        format: string;
      };
}

/** Every REST operation by operationId. */
export interface Operations {
  /** The API descriptor */
  getApi: {
    method: 'GET';
    path: '/';
    params: Record<string, never>;
    query: Record<string, never>;
    body: undefined;
    response: Schemas['ApiDescriptor'];
    errorCode: 'host_not_allowed' | 'internal_error' | 'not_found' | 'origin_not_allowed' | 'token_required' | 'unauthorized';
  };
  /** This OpenAPI 3.1 document */
  getOpenApi: {
    method: 'GET';
    path: '/api/openapi.json';
    params: Record<string, never>;
    query: Record<string, never>;
    body: undefined;
    response: Schemas['OpenApiDocument'];
    errorCode: 'host_not_allowed' | 'internal_error' | 'not_found' | 'origin_not_allowed' | 'token_required' | 'unauthorized';
  };
  /** Liveness */
  healthz: {
    method: 'GET';
    path: '/healthz';
    params: Record<string, never>;
    query: Record<string, never>;
    body: undefined;
    response: Schemas['HealthStatus'];
    errorCode: never;
  };
  /** Readiness */
  readyz: {
    method: 'GET';
    path: '/readyz';
    params: Record<string, never>;
    query: Record<string, never>;
    body: undefined;
    response: Schemas['ReadyStatus'];
    errorCode: never;
  };
  /** Prometheus metrics (text exposition format) */
  metrics: {
    method: 'GET';
    path: '/metrics';
    params: Record<string, never>;
    query: Record<string, never>;
    body: undefined;
    response: string;
    errorCode: 'host_not_allowed' | 'internal_error' | 'not_found' | 'origin_not_allowed' | 'token_required' | 'unauthorized';
  };
  /** List swarms */
  listSwarms: {
    method: 'GET';
    path: '/api/swarms';
    params: Record<string, never>;
    query: Record<string, never>;
    body: undefined;
    response: Schemas['SwarmList'];
    errorCode: 'host_not_allowed' | 'internal_error' | 'not_found' | 'origin_not_allowed' | 'token_required' | 'unauthorized';
  };
  /** Start a swarm */
  startSwarm: {
    method: 'POST';
    path: '/api/swarms';
    params: Record<string, never>;
    query: Record<string, never>;
    body: Schemas['StartSwarmCommand'];
    response: Schemas['SwarmCreated'];
    errorCode:
      | 'agent_cap_exceeded'
      | 'already_exists'
      | 'binary_missing'
      | 'budget_unenforceable'
      | 'bypass_requires_opt_in'
      | 'client_endpoint_incompatible'
      | 'config_parse_error'
      | 'config_too_large'
      | 'config_unreadable'
      | 'egress_unavailable'
      | 'endpoint_not_allowed'
      | 'endpoint_not_configured'
      | 'git_not_a_repository'
      | 'git_ref_unresolved'
      | 'host_limit'
      | 'host_not_allowed'
      | 'image_missing'
      | 'internal_error'
      | 'invalid_argv'
      | 'invalid_config_path'
      | 'invalid_json'
      | 'ir_validation_failed'
      | 'launch_too_large'
      | 'limits_unsupported'
      | 'nix_path_invalid'
      | 'not_found'
      | 'origin_not_allowed'
      | 'payload_too_large'
      | 'remote_engine_insecure'
      | 'remote_engine_unsupported'
      | 'runner_error'
      | 'seccomp_unsupported'
      | 'storage_full'
      | 'token_required'
      | 'unauthorized'
      | 'unsafe_bind'
      | 'unsafe_workspace'
      | 'unsupported_format'
      | 'unsupported_media_type'
      | 'unsupported_network'
      | 'validation_failed'
      | 'workspace_outside_roots';
  };
  /** Swarm detail */
  getSwarm: {
    method: 'GET';
    path: '/api/swarms/{s}';
    params: {
      /** Swarm name */
      s: string;
    };
    query: Record<string, never>;
    body: undefined;
    response: Schemas['SwarmDetail'];
    errorCode:
      'host_not_allowed' | 'internal_error' | 'not_found' | 'origin_not_allowed' | 'swarm_not_found' | 'token_required' | 'unauthorized';
  };
  /** Stop (or purge) a swarm */
  stopSwarm: {
    method: 'DELETE';
    path: '/api/swarms/{s}';
    params: {
      /** Swarm name */
      s: string;
    };
    query: {
      /** Also delete its events, messages, turns, default workspaces, overlay and registry entry */
      purge?: 'true' | 'false';
    };
    body: undefined;
    response: Schemas['SwarmStopped'];
    errorCode:
      | 'host_not_allowed'
      | 'internal_error'
      | 'invalid_query'
      | 'not_found'
      | 'origin_not_allowed'
      | 'storage_full'
      | 'swarm_not_found'
      | 'token_required'
      | 'unauthorized';
  };
  /** Restart a swarm */
  restartSwarm: {
    method: 'POST';
    path: '/api/swarms/{s}/restart';
    params: {
      /** Swarm name */
      s: string;
    };
    query: {
      /** Delete its events, messages, turns and default workspaces first */
      delete?: 'true' | 'false';
    };
    body: undefined;
    response: Schemas['SwarmRestarted'];
    errorCode:
      | 'agent_cap_exceeded'
      | 'already_exists'
      | 'binary_missing'
      | 'budget_unenforceable'
      | 'bypass_requires_opt_in'
      | 'client_endpoint_incompatible'
      | 'config_parse_error'
      | 'config_too_large'
      | 'config_unreadable'
      | 'egress_unavailable'
      | 'endpoint_not_allowed'
      | 'endpoint_not_configured'
      | 'git_not_a_repository'
      | 'git_ref_unresolved'
      | 'host_limit'
      | 'host_not_allowed'
      | 'image_missing'
      | 'internal_error'
      | 'invalid_argv'
      | 'invalid_config_path'
      | 'invalid_query'
      | 'ir_validation_failed'
      | 'launch_too_large'
      | 'limits_unsupported'
      | 'nix_path_invalid'
      | 'not_found'
      | 'origin_not_allowed'
      | 'remote_engine_insecure'
      | 'remote_engine_unsupported'
      | 'runner_error'
      | 'seccomp_unsupported'
      | 'storage_full'
      | 'swarm_not_found'
      | 'token_required'
      | 'unauthorized'
      | 'unsafe_bind'
      | 'unsafe_workspace'
      | 'unsupported_format'
      | 'unsupported_network'
      | 'validation_failed'
      | 'workspace_outside_roots';
  };
  /** Pause docker-backed agents */
  pauseSwarm: {
    method: 'POST';
    path: '/api/swarms/{s}/pause';
    params: {
      /** Swarm name */
      s: string;
    };
    query: Record<string, never>;
    body: undefined;
    response: Schemas['PauseResult'];
    errorCode:
      | 'host_not_allowed'
      | 'internal_error'
      | 'not_found'
      | 'origin_not_allowed'
      | 'runner_error'
      | 'storage_full'
      | 'swarm_not_found'
      | 'token_required'
      | 'unauthorized';
  };
  /** Resume docker-backed agents */
  resumeSwarm: {
    method: 'POST';
    path: '/api/swarms/{s}/resume';
    params: {
      /** Swarm name */
      s: string;
    };
    query: Record<string, never>;
    body: undefined;
    response: Schemas['PauseResult'];
    errorCode:
      | 'host_not_allowed'
      | 'internal_error'
      | 'not_found'
      | 'origin_not_allowed'
      | 'runner_error'
      | 'storage_full'
      | 'swarm_not_found'
      | 'token_required'
      | 'unauthorized';
  };
  /** The effective config (seed ⊕ overlay), redacted */
  snapshotSwarm: {
    method: 'POST';
    path: '/api/swarms/{s}/snapshot';
    params: {
      /** Swarm name */
      s: string;
    };
    query: {
      /** Answer as JSON (default) or YAML */
      format?: 'json' | 'yaml';
    };
    body: undefined;
    response: Schemas['Snapshot'];
    errorCode:
      | 'host_not_allowed'
      | 'internal_error'
      | 'invalid_query'
      | 'not_found'
      | 'origin_not_allowed'
      | 'storage_full'
      | 'swarm_not_found'
      | 'token_required'
      | 'unauthorized';
  };
  /** Route one message */
  sendMessage: {
    method: 'POST';
    path: '/api/swarms/{s}/message';
    params: {
      /** Swarm name */
      s: string;
    };
    query: Record<string, never>;
    body: Schemas['MessageCommand'];
    response: Schemas['MessageRouted'];
    errorCode:
      | 'host_not_allowed'
      | 'internal_error'
      | 'invalid_json'
      | 'not_found'
      | 'origin_not_allowed'
      | 'payload_too_large'
      | 'storage_full'
      | 'swarm_not_found'
      | 'token_required'
      | 'unauthorized'
      | 'unsupported_media_type'
      | 'validation_failed';
  };
  /** The message log, newest first */
  listMessages: {
    method: 'GET';
    path: '/api/swarms/{s}/messages';
    params: {
      /** Swarm name */
      s: string;
    };
    query: {
      /** At most this many entries, 1-1000 (default 100) */
      limit?: number;
    };
    body: undefined;
    response: Schemas['MessageList'];
    errorCode:
      | 'host_not_allowed'
      | 'internal_error'
      | 'invalid_query'
      | 'not_found'
      | 'origin_not_allowed'
      | 'swarm_not_found'
      | 'token_required'
      | 'unauthorized';
  };
  /** Agents of a swarm */
  listAgents: {
    method: 'GET';
    path: '/api/swarms/{s}/agents';
    params: {
      /** Swarm name */
      s: string;
    };
    query: Record<string, never>;
    body: undefined;
    response: Schemas['AgentList'];
    errorCode:
      'host_not_allowed' | 'internal_error' | 'not_found' | 'origin_not_allowed' | 'swarm_not_found' | 'token_required' | 'unauthorized';
  };
  /** Add an agent to a running swarm */
  addAgent: {
    method: 'POST';
    path: '/api/swarms/{s}/agents';
    params: {
      /** Swarm name */
      s: string;
    };
    query: Record<string, never>;
    body: Schemas['AddAgentCommand'];
    response: Schemas['NodeAdded'];
    errorCode:
      | 'agent_cap_exceeded'
      | 'already_exists'
      | 'binary_missing'
      | 'budget_unenforceable'
      | 'bypass_requires_opt_in'
      | 'client_endpoint_incompatible'
      | 'egress_unavailable'
      | 'endpoint_not_allowed'
      | 'endpoint_not_configured'
      | 'forbidden_config_keys'
      | 'git_not_a_repository'
      | 'git_ref_unresolved'
      | 'host_limit'
      | 'host_not_allowed'
      | 'image_missing'
      | 'internal_error'
      | 'invalid_argv'
      | 'invalid_json'
      | 'invalid_name'
      | 'launch_too_large'
      | 'limits_unsupported'
      | 'nix_path_invalid'
      | 'not_found'
      | 'origin_not_allowed'
      | 'payload_too_large'
      | 'remote_engine_insecure'
      | 'remote_engine_unsupported'
      | 'runner_error'
      | 'seccomp_unsupported'
      | 'storage_full'
      | 'swarm_not_found'
      | 'token_required'
      | 'unauthorized'
      | 'unknown_edge_endpoint'
      | 'unsafe_bind'
      | 'unsafe_workspace'
      | 'unsupported_media_type'
      | 'unsupported_network'
      | 'validation_failed'
      | 'workspace_outside_roots';
  };
  /** Agent status */
  getAgent: {
    method: 'GET';
    path: '/api/swarms/{s}/agents/{a}';
    params: {
      /** Swarm name */
      s: string;
      /** Agent name */
      a: string;
    };
    query: Record<string, never>;
    body: undefined;
    response: Schemas['AgentStatus'];
    errorCode:
      | 'agent_not_found'
      | 'host_not_allowed'
      | 'internal_error'
      | 'not_found'
      | 'origin_not_allowed'
      | 'swarm_not_found'
      | 'token_required'
      | 'unauthorized';
  };
  /** Remove an agent */
  removeAgent: {
    method: 'DELETE';
    path: '/api/swarms/{s}/agents/{a}';
    params: {
      /** Swarm name */
      s: string;
      /** Agent name */
      a: string;
    };
    query: Record<string, never>;
    body: undefined;
    response: Schemas['NodeRemoved'];
    errorCode:
      | 'agent_not_found'
      | 'host_not_allowed'
      | 'internal_error'
      | 'not_found'
      | 'origin_not_allowed'
      | 'storage_full'
      | 'swarm_not_found'
      | 'token_required'
      | 'unauthorized';
  };
  /** Queue a task */
  sendTask: {
    method: 'POST';
    path: '/api/swarms/{s}/agents/{a}/task';
    params: {
      /** Swarm name */
      s: string;
      /** Agent name */
      a: string;
    };
    query: Record<string, never>;
    body: Schemas['TaskCommand'];
    response: Schemas['TaskSent'];
    errorCode:
      | 'agent_not_found'
      | 'agent_not_ready'
      | 'host_not_allowed'
      | 'inbox_full'
      | 'internal_error'
      | 'invalid_json'
      | 'needs_attention'
      | 'not_found'
      | 'origin_not_allowed'
      | 'payload_too_large'
      | 'storage_full'
      | 'swarm_not_found'
      | 'token_required'
      | 'unauthorized'
      | 'unsupported_media_type'
      | 'validation_failed';
  };
  /** Restart an agent */
  restartAgent: {
    method: 'POST';
    path: '/api/swarms/{s}/agents/{a}/restart';
    params: {
      /** Swarm name */
      s: string;
      /** Agent name */
      a: string;
    };
    query: Record<string, never>;
    body: undefined;
    response: Schemas['AgentRestarted'];
    errorCode:
      | 'agent_not_found'
      | 'binary_missing'
      | 'budget_unenforceable'
      | 'bypass_requires_opt_in'
      | 'client_endpoint_incompatible'
      | 'egress_unavailable'
      | 'endpoint_not_allowed'
      | 'endpoint_not_configured'
      | 'git_not_a_repository'
      | 'git_ref_unresolved'
      | 'host_not_allowed'
      | 'image_missing'
      | 'internal_error'
      | 'invalid_argv'
      | 'launch_too_large'
      | 'limits_unsupported'
      | 'nix_path_invalid'
      | 'not_found'
      | 'origin_not_allowed'
      | 'remote_engine_insecure'
      | 'remote_engine_unsupported'
      | 'runner_error'
      | 'seccomp_unsupported'
      | 'storage_full'
      | 'swarm_not_found'
      | 'token_required'
      | 'unauthorized'
      | 'unsafe_bind'
      | 'unsafe_workspace'
      | 'unsupported_network'
      | 'workspace_outside_roots';
  };
  /** Resume an agent that needs attention */
  resumeAgent: {
    method: 'POST';
    path: '/api/swarms/{s}/agents/{a}/resume';
    params: {
      /** Swarm name */
      s: string;
      /** Agent name */
      a: string;
    };
    query: Record<string, never>;
    body: undefined;
    response: Schemas['AgentResumed'];
    errorCode:
      | 'agent_not_found'
      | 'host_not_allowed'
      | 'internal_error'
      | 'invalid_state'
      | 'not_found'
      | 'origin_not_allowed'
      | 'storage_full'
      | 'swarm_not_found'
      | 'token_required'
      | 'unauthorized';
  };
  /** Scale an agent group */
  scaleAgents: {
    method: 'POST';
    path: '/api/swarms/{s}/agents/{base}/scale';
    params: {
      /** Swarm name */
      s: string;
      /** Base name of an agent group */
      base: string;
    };
    query: Record<string, never>;
    body: Schemas['ScaleCommand'];
    response: Schemas['ScaleResult'];
    errorCode:
      | 'agent_cap_exceeded'
      | 'agent_not_found'
      | 'binary_missing'
      | 'budget_unenforceable'
      | 'bypass_requires_opt_in'
      | 'client_endpoint_incompatible'
      | 'egress_unavailable'
      | 'endpoint_not_allowed'
      | 'endpoint_not_configured'
      | 'git_not_a_repository'
      | 'git_ref_unresolved'
      | 'host_limit'
      | 'host_not_allowed'
      | 'image_missing'
      | 'internal_error'
      | 'invalid_argv'
      | 'invalid_count'
      | 'invalid_json'
      | 'launch_too_large'
      | 'limits_unsupported'
      | 'nix_path_invalid'
      | 'not_found'
      | 'origin_not_allowed'
      | 'payload_too_large'
      | 'remote_engine_insecure'
      | 'remote_engine_unsupported'
      | 'runner_error'
      | 'seccomp_unsupported'
      | 'storage_full'
      | 'swarm_not_found'
      | 'token_required'
      | 'unauthorized'
      | 'unsafe_bind'
      | 'unsafe_workspace'
      | 'unsupported_media_type'
      | 'unsupported_network'
      | 'workspace_outside_roots';
  };
  /** Turns of an agent, newest first */
  listTurns: {
    method: 'GET';
    path: '/api/swarms/{s}/agents/{a}/turns';
    params: {
      /** Swarm name */
      s: string;
      /** Agent name */
      a: string;
    };
    query: {
      /** At most this many entries, 1-500 (default 50) */
      limit?: number;
    };
    body: undefined;
    response: Schemas['TurnList'];
    errorCode:
      | 'agent_not_found'
      | 'host_not_allowed'
      | 'internal_error'
      | 'invalid_query'
      | 'not_found'
      | 'origin_not_allowed'
      | 'swarm_not_found'
      | 'token_required'
      | 'unauthorized';
  };
  /** One turn of an agent with its full reply */
  getTurn: {
    method: 'GET';
    path: '/api/swarms/{s}/agents/{a}/turns/{t}';
    params: {
      /** Swarm name */
      s: string;
      /** Agent name */
      a: string;
      /** Turn id */
      t: string;
    };
    query: Record<string, never>;
    body: undefined;
    response: Schemas['TurnDetail'];
    errorCode:
      | 'agent_not_found'
      | 'host_not_allowed'
      | 'internal_error'
      | 'not_found'
      | 'origin_not_allowed'
      | 'swarm_not_found'
      | 'token_required'
      | 'turn_not_found'
      | 'unauthorized';
  };
  /** What an agent received and sent, newest first */
  agentHistory: {
    method: 'GET';
    path: '/api/swarms/{s}/agents/{a}/history';
    params: {
      /** Swarm name */
      s: string;
      /** Agent name */
      a: string;
    };
    query: {
      /** At most this many entries, 1-1000 (default 100) */
      limit?: number;
    };
    body: undefined;
    response: Schemas['AgentHistory'];
    errorCode:
      | 'agent_not_found'
      | 'host_not_allowed'
      | 'internal_error'
      | 'invalid_query'
      | 'not_found'
      | 'origin_not_allowed'
      | 'swarm_not_found'
      | 'token_required'
      | 'unauthorized';
  };
  /** Recent output lines */
  agentLogs: {
    method: 'GET';
    path: '/api/swarms/{s}/agents/{a}/logs';
    params: {
      /** Swarm name */
      s: string;
      /** Agent name */
      a: string;
    };
    query: Record<string, never>;
    body: undefined;
    response: Schemas['AgentLogs'];
    errorCode:
      | 'agent_not_found'
      | 'host_not_allowed'
      | 'internal_error'
      | 'not_found'
      | 'origin_not_allowed'
      | 'swarm_not_found'
      | 'token_required'
      | 'unauthorized';
  };
  /** A TUI agent's pane text now */
  agentScreen: {
    method: 'GET';
    path: '/api/swarms/{s}/agents/{a}/screen';
    params: {
      /** Swarm name */
      s: string;
      /** Agent name */
      a: string;
    };
    query: Record<string, never>;
    body: undefined;
    response: Schemas['AgentScreen'];
    errorCode:
      | 'agent_not_found'
      | 'host_not_allowed'
      | 'internal_error'
      | 'not_found'
      | 'origin_not_allowed'
      | 'swarm_not_found'
      | 'token_required'
      | 'unauthorized';
  };
  /** An agent's git work: files changed from its clone's start (committed and not) and its branch's commits */
  agentGitChanges: {
    method: 'GET';
    path: '/api/swarms/{s}/agents/{a}/changes';
    params: {
      /** Swarm name */
      s: string;
      /** Agent name */
      a: string;
    };
    query: Record<string, never>;
    body: undefined;
    response: Schemas['AgentChanges'];
    errorCode:
      | 'agent_not_found'
      | 'git_failed'
      | 'host_not_allowed'
      | 'internal_error'
      | 'no_git_workspace'
      | 'not_found'
      | 'origin_not_allowed'
      | 'token_required'
      | 'unauthorized';
  };
  /** The unified diff of an agent's git work (committed and not), cut with a note past the size limit */
  agentGitDiff: {
    method: 'GET';
    path: '/api/swarms/{s}/agents/{a}/diff';
    params: {
      /** Swarm name */
      s: string;
      /** Agent name */
      a: string;
    };
    query: {
      /** A diffstat instead of the diff */
      stat?: 'true' | 'false';
    };
    body: undefined;
    response: Schemas['AgentGitDiff'];
    errorCode:
      | 'agent_not_found'
      | 'git_failed'
      | 'host_not_allowed'
      | 'internal_error'
      | 'invalid_query'
      | 'no_git_workspace'
      | 'not_found'
      | 'origin_not_allowed'
      | 'token_required'
      | 'unauthorized';
  };
  /** Create or move the branch genswarms/<swarm>/<agent> of the operator's repository to each agent's work */
  fetchGitWork: {
    method: 'POST';
    path: '/api/swarms/{s}/git/fetch';
    params: {
      /** Swarm name */
      s: string;
    };
    query: Record<string, never>;
    body: Schemas['GitFetchCommand'];
    response: Schemas['GitWorkFetched'];
    errorCode:
      | 'git_failed'
      | 'host_not_allowed'
      | 'internal_error'
      | 'invalid_json'
      | 'no_git_workspace'
      | 'not_found'
      | 'origin_not_allowed'
      | 'payload_too_large'
      | 'storage_full'
      | 'swarm_not_found'
      | 'token_required'
      | 'unauthorized'
      | 'unsupported_media_type'
      | 'validation_failed';
  };
  /** The topology */
  getTopology: {
    method: 'GET';
    path: '/api/swarms/{s}/topology';
    params: {
      /** Swarm name */
      s: string;
    };
    query: Record<string, never>;
    body: undefined;
    response: Schemas['Topology'];
    errorCode:
      'host_not_allowed' | 'internal_error' | 'not_found' | 'origin_not_allowed' | 'swarm_not_found' | 'token_required' | 'unauthorized';
  };
  /** Add and remove edges (all or nothing) */
  patchTopology: {
    method: 'PATCH';
    path: '/api/swarms/{s}/topology';
    params: {
      /** Swarm name */
      s: string;
    };
    query: Record<string, never>;
    body: Schemas['TopologyPatchCommand'];
    response: Schemas['TopologyPatched'];
    errorCode:
      | 'host_not_allowed'
      | 'internal_error'
      | 'invalid_json'
      | 'not_found'
      | 'origin_not_allowed'
      | 'payload_too_large'
      | 'storage_full'
      | 'swarm_not_found'
      | 'token_required'
      | 'unauthorized'
      | 'unknown_edge_endpoint'
      | 'unsupported_media_type'
      | 'validation_failed';
  };
  /** Objects of a swarm */
  listObjects: {
    method: 'GET';
    path: '/api/swarms/{s}/objects';
    params: {
      /** Swarm name */
      s: string;
    };
    query: Record<string, never>;
    body: undefined;
    response: Schemas['ObjectList'];
    errorCode:
      'host_not_allowed' | 'internal_error' | 'not_found' | 'origin_not_allowed' | 'swarm_not_found' | 'token_required' | 'unauthorized';
  };
  /** Add an object to a running swarm */
  addObject: {
    method: 'POST';
    path: '/api/swarms/{s}/objects';
    params: {
      /** Swarm name */
      s: string;
    };
    query: Record<string, never>;
    body: Schemas['AddObjectCommand'];
    response: Schemas['NodeAdded'];
    errorCode:
      | 'already_exists'
      | 'host_not_allowed'
      | 'internal_error'
      | 'invalid_handler'
      | 'invalid_json'
      | 'invalid_name'
      | 'not_found'
      | 'object_init_failed'
      | 'origin_not_allowed'
      | 'payload_too_large'
      | 'storage_full'
      | 'swarm_not_found'
      | 'token_required'
      | 'unauthorized'
      | 'unknown_edge_endpoint'
      | 'unsupported_media_type'
      | 'validation_failed';
  };
  /** Object detail */
  getObject: {
    method: 'GET';
    path: '/api/swarms/{s}/objects/{o}';
    params: {
      /** Swarm name */
      s: string;
      /** Object name */
      o: string;
    };
    query: Record<string, never>;
    body: undefined;
    response: Schemas['ObjectDetail'];
    errorCode:
      | 'host_not_allowed'
      | 'internal_error'
      | 'not_found'
      | 'object_not_found'
      | 'origin_not_allowed'
      | 'swarm_not_found'
      | 'token_required'
      | 'unauthorized';
  };
  /** Remove an object */
  removeObject: {
    method: 'DELETE';
    path: '/api/swarms/{s}/objects/{o}';
    params: {
      /** Swarm name */
      s: string;
      /** Object name */
      o: string;
    };
    query: Record<string, never>;
    body: undefined;
    response: Schemas['NodeRemoved'];
    errorCode:
      | 'host_not_allowed'
      | 'internal_error'
      | 'not_found'
      | 'object_not_found'
      | 'origin_not_allowed'
      | 'storage_full'
      | 'swarm_not_found'
      | 'token_required'
      | 'unauthorized';
  };
  /** Patch an object's config */
  patchObjectConfig: {
    method: 'PATCH';
    path: '/api/swarms/{s}/objects/{o}/config';
    params: {
      /** Swarm name */
      s: string;
      /** Object name */
      o: string;
    };
    query: Record<string, never>;
    body: Schemas['ObjectConfigPatchCommand'];
    response: Schemas['ObjectConfigUpdated'];
    errorCode:
      | 'forbidden_config_keys'
      | 'host_not_allowed'
      | 'immutable_keys'
      | 'internal_error'
      | 'invalid_json'
      | 'no_config_schema'
      | 'not_found'
      | 'object_init_failed'
      | 'object_not_found'
      | 'origin_not_allowed'
      | 'patch_too_large'
      | 'payload_too_large'
      | 'storage_full'
      | 'swarm_not_found'
      | 'token_required'
      | 'unauthorized'
      | 'unsupported_media_type'
      | 'validation_failed';
  };
  /** The runtime overlay */
  getOverlay: {
    method: 'GET';
    path: '/api/swarms/{s}/overlay';
    params: {
      /** Swarm name */
      s: string;
    };
    query: Record<string, never>;
    body: undefined;
    response: Schemas['OverlayView'];
    errorCode: 'host_not_allowed' | 'internal_error' | 'not_found' | 'origin_not_allowed' | 'token_required' | 'unauthorized';
  };
  /** Clear the overlay */
  clearOverlay: {
    method: 'DELETE';
    path: '/api/swarms/{s}/overlay';
    params: {
      /** Swarm name */
      s: string;
    };
    query: Record<string, never>;
    body: undefined;
    response: Schemas['OverlayCleared'];
    errorCode:
      'host_not_allowed' | 'internal_error' | 'not_found' | 'origin_not_allowed' | 'storage_full' | 'token_required' | 'unauthorized';
  };
  /** Stored events */
  queryEvents: {
    method: 'GET';
    path: '/api/events';
    params: Record<string, never>;
    query: {
      /** Only events of this level */
      level?: 'debug' | 'info' | 'warning' | 'error';
      /** Only events of this category */
      category?: 'swarm' | 'agent' | 'object' | 'routing' | 'backend' | 'system';
      /** Only events of this swarm */
      swarm?: string;
      /** Only events of this agent or object */
      agent?: string;
      /** Only events of this type */
      event_type?: string;
      /** Only events of the last N minutes */
      minutes?: number;
      /** At most this many events (default 100) */
      limit?: number;
      /** Only events after this id, oldest first */
      since_id?: number;
    };
    body: undefined;
    response: Schemas['EventPage'];
    errorCode:
      'host_not_allowed' | 'internal_error' | 'invalid_query' | 'not_found' | 'origin_not_allowed' | 'token_required' | 'unauthorized';
  };
  /** Events of a swarm */
  swarmEvents: {
    method: 'GET';
    path: '/api/swarms/{s}/events';
    params: {
      /** Swarm name */
      s: string;
    };
    query: {
      /** Only events of this level */
      level?: 'debug' | 'info' | 'warning' | 'error';
      /** Only events of this category */
      category?: 'swarm' | 'agent' | 'object' | 'routing' | 'backend' | 'system';
      /** Only events of this agent or object */
      agent?: string;
      /** Only events of this type */
      event_type?: string;
      /** Only events of the last N minutes */
      minutes?: number;
      /** At most this many events (default 100) */
      limit?: number;
      /** Only events after this id, oldest first */
      since_id?: number;
    };
    body: undefined;
    response: Schemas['ScopedEventPage'];
    errorCode:
      'host_not_allowed' | 'internal_error' | 'invalid_query' | 'not_found' | 'origin_not_allowed' | 'token_required' | 'unauthorized';
  };
  /** Events of an agent */
  agentEvents: {
    method: 'GET';
    path: '/api/swarms/{s}/agents/{a}/events';
    params: {
      /** Swarm name */
      s: string;
      /** Agent name */
      a: string;
    };
    query: {
      /** Only events of this level */
      level?: 'debug' | 'info' | 'warning' | 'error';
      /** Only events of this category */
      category?: 'swarm' | 'agent' | 'object' | 'routing' | 'backend' | 'system';
      /** Only events of this type */
      event_type?: string;
      /** Only events of the last N minutes */
      minutes?: number;
      /** At most this many events (default 100) */
      limit?: number;
      /** Only events after this id, oldest first */
      since_id?: number;
    };
    body: undefined;
    response: Schemas['ScopedEventPage'];
    errorCode:
      'host_not_allowed' | 'internal_error' | 'invalid_query' | 'not_found' | 'origin_not_allowed' | 'token_required' | 'unauthorized';
  };
  /** The skills catalogue */
  listSkills: {
    method: 'GET';
    path: '/api/skills';
    params: Record<string, never>;
    query: Record<string, never>;
    body: undefined;
    response: Schemas['SkillList'];
    errorCode: 'host_not_allowed' | 'internal_error' | 'not_found' | 'origin_not_allowed' | 'token_required' | 'unauthorized';
  };
  /** One skill */
  readSkill: {
    method: 'GET';
    path: '/api/skills/{name}';
    params: {
      /** Skill name (".md" optional; a name inside a category is found through the catalogue) */
      name: string;
    };
    query: Record<string, never>;
    body: undefined;
    response: Schemas['SkillDocument'];
    errorCode:
      'host_not_allowed' | 'internal_error' | 'invalid_name' | 'not_found' | 'origin_not_allowed' | 'token_required' | 'unauthorized';
  };
  /** Run every plan-time check of start, creating nothing */
  validateConfig: {
    method: 'POST';
    path: '/api/config/validate';
    params: Record<string, never>;
    query: Record<string, never>;
    body: Schemas['ValidateConfigCommand'];
    response: Schemas['ConfigValid'];
    errorCode:
      | 'agent_cap_exceeded'
      | 'binary_missing'
      | 'budget_unenforceable'
      | 'bypass_requires_opt_in'
      | 'client_endpoint_incompatible'
      | 'config_parse_error'
      | 'config_too_large'
      | 'config_unreadable'
      | 'egress_unavailable'
      | 'endpoint_not_allowed'
      | 'endpoint_not_configured'
      | 'git_not_a_repository'
      | 'git_ref_unresolved'
      | 'host_not_allowed'
      | 'image_missing'
      | 'internal_error'
      | 'invalid_argv'
      | 'invalid_config_path'
      | 'invalid_handler'
      | 'invalid_json'
      | 'ir_validation_failed'
      | 'launch_too_large'
      | 'limits_unsupported'
      | 'nix_path_invalid'
      | 'not_found'
      | 'origin_not_allowed'
      | 'payload_too_large'
      | 'remote_engine_insecure'
      | 'remote_engine_unsupported'
      | 'seccomp_unsupported'
      | 'storage_full'
      | 'token_required'
      | 'unauthorized'
      | 'unsafe_bind'
      | 'unsafe_workspace'
      | 'unsupported_format'
      | 'unsupported_media_type'
      | 'unsupported_network'
      | 'validation_failed'
      | 'workspace_outside_roots';
  };
  /** Raise, lower or remove an agent's LLM budget or rate limit (its scaled group changes together) */
  patchAgentBudget: {
    method: 'PATCH';
    path: '/api/swarms/{s}/agents/{a}/budget';
    params: {
      /** Swarm name */
      s: string;
      /** Agent name */
      a: string;
    };
    query: Record<string, never>;
    body: Schemas['BudgetPatchCommand'];
    response: Schemas['BudgetUpdated'];
    errorCode:
      | 'agent_not_found'
      | 'budget_unenforceable'
      | 'host_not_allowed'
      | 'internal_error'
      | 'invalid_json'
      | 'not_found'
      | 'origin_not_allowed'
      | 'payload_too_large'
      | 'storage_full'
      | 'swarm_not_found'
      | 'token_required'
      | 'unauthorized'
      | 'unsupported_media_type'
      | 'validation_failed';
  };
  /** Raise, lower or remove the swarm's shared LLM budget or rate limit */
  patchSwarmBudget: {
    method: 'PATCH';
    path: '/api/swarms/{s}/budget';
    params: {
      /** Swarm name */
      s: string;
    };
    query: Record<string, never>;
    body: Schemas['BudgetPatchCommand'];
    response: Schemas['BudgetUpdated'];
    errorCode:
      | 'budget_unenforceable'
      | 'host_not_allowed'
      | 'internal_error'
      | 'invalid_json'
      | 'not_found'
      | 'origin_not_allowed'
      | 'payload_too_large'
      | 'storage_full'
      | 'swarm_not_found'
      | 'token_required'
      | 'unauthorized'
      | 'unsupported_media_type'
      | 'validation_failed';
  };
  /** An agent's LLM calls through the metering egress, newest first (never a prompt, completion, header or key) */
  listLlmRequests: {
    method: 'GET';
    path: '/api/swarms/{s}/agents/{a}/llm-requests';
    params: {
      /** Swarm name */
      s: string;
      /** Agent name */
      a: string;
    };
    query: {
      /** At most this many entries, 1-500 (default 100) */
      limit?: number;
      /** Only entries older than this id (the `next_before` of the previous page) */
      before?: number;
    };
    body: undefined;
    response: Schemas['LlmRequestList'];
    errorCode:
      | 'agent_not_found'
      | 'host_not_allowed'
      | 'internal_error'
      | 'invalid_query'
      | 'not_found'
      | 'origin_not_allowed'
      | 'swarm_not_found'
      | 'token_required'
      | 'unauthorized';
  };
}

/** Method, path template and answer kind of every operation. */
export const OPERATION_ROUTES = {
  getApi: { method: 'GET', path: '/', text: false },
  getOpenApi: { method: 'GET', path: '/api/openapi.json', text: false },
  healthz: { method: 'GET', path: '/healthz', text: false },
  readyz: { method: 'GET', path: '/readyz', text: false },
  metrics: { method: 'GET', path: '/metrics', text: true },
  listSwarms: { method: 'GET', path: '/api/swarms', text: false },
  startSwarm: { method: 'POST', path: '/api/swarms', text: false },
  getSwarm: { method: 'GET', path: '/api/swarms/{s}', text: false },
  stopSwarm: { method: 'DELETE', path: '/api/swarms/{s}', text: false },
  restartSwarm: { method: 'POST', path: '/api/swarms/{s}/restart', text: false },
  pauseSwarm: { method: 'POST', path: '/api/swarms/{s}/pause', text: false },
  resumeSwarm: { method: 'POST', path: '/api/swarms/{s}/resume', text: false },
  snapshotSwarm: { method: 'POST', path: '/api/swarms/{s}/snapshot', text: false },
  sendMessage: { method: 'POST', path: '/api/swarms/{s}/message', text: false },
  listMessages: { method: 'GET', path: '/api/swarms/{s}/messages', text: false },
  listAgents: { method: 'GET', path: '/api/swarms/{s}/agents', text: false },
  addAgent: { method: 'POST', path: '/api/swarms/{s}/agents', text: false },
  getAgent: { method: 'GET', path: '/api/swarms/{s}/agents/{a}', text: false },
  removeAgent: { method: 'DELETE', path: '/api/swarms/{s}/agents/{a}', text: false },
  sendTask: { method: 'POST', path: '/api/swarms/{s}/agents/{a}/task', text: false },
  restartAgent: { method: 'POST', path: '/api/swarms/{s}/agents/{a}/restart', text: false },
  resumeAgent: { method: 'POST', path: '/api/swarms/{s}/agents/{a}/resume', text: false },
  scaleAgents: { method: 'POST', path: '/api/swarms/{s}/agents/{base}/scale', text: false },
  listTurns: { method: 'GET', path: '/api/swarms/{s}/agents/{a}/turns', text: false },
  getTurn: { method: 'GET', path: '/api/swarms/{s}/agents/{a}/turns/{t}', text: false },
  agentHistory: { method: 'GET', path: '/api/swarms/{s}/agents/{a}/history', text: false },
  agentLogs: { method: 'GET', path: '/api/swarms/{s}/agents/{a}/logs', text: false },
  agentScreen: { method: 'GET', path: '/api/swarms/{s}/agents/{a}/screen', text: false },
  agentGitChanges: { method: 'GET', path: '/api/swarms/{s}/agents/{a}/changes', text: false },
  agentGitDiff: { method: 'GET', path: '/api/swarms/{s}/agents/{a}/diff', text: false },
  fetchGitWork: { method: 'POST', path: '/api/swarms/{s}/git/fetch', text: false },
  getTopology: { method: 'GET', path: '/api/swarms/{s}/topology', text: false },
  patchTopology: { method: 'PATCH', path: '/api/swarms/{s}/topology', text: false },
  listObjects: { method: 'GET', path: '/api/swarms/{s}/objects', text: false },
  addObject: { method: 'POST', path: '/api/swarms/{s}/objects', text: false },
  getObject: { method: 'GET', path: '/api/swarms/{s}/objects/{o}', text: false },
  removeObject: { method: 'DELETE', path: '/api/swarms/{s}/objects/{o}', text: false },
  patchObjectConfig: { method: 'PATCH', path: '/api/swarms/{s}/objects/{o}/config', text: false },
  getOverlay: { method: 'GET', path: '/api/swarms/{s}/overlay', text: false },
  clearOverlay: { method: 'DELETE', path: '/api/swarms/{s}/overlay', text: false },
  queryEvents: { method: 'GET', path: '/api/events', text: false },
  swarmEvents: { method: 'GET', path: '/api/swarms/{s}/events', text: false },
  agentEvents: { method: 'GET', path: '/api/swarms/{s}/agents/{a}/events', text: false },
  listSkills: { method: 'GET', path: '/api/skills', text: false },
  readSkill: { method: 'GET', path: '/api/skills/{name}', text: false },
  validateConfig: { method: 'POST', path: '/api/config/validate', text: false },
  patchAgentBudget: { method: 'PATCH', path: '/api/swarms/{s}/agents/{a}/budget', text: false },
  patchSwarmBudget: { method: 'PATCH', path: '/api/swarms/{s}/budget', text: false },
  listLlmRequests: { method: 'GET', path: '/api/swarms/{s}/agents/{a}/llm-requests', text: false },
} as const;

/** Every error code an operation may answer. */
export type ApiErrorCode =
  | 'agent_cap_exceeded'
  | 'agent_not_found'
  | 'agent_not_ready'
  | 'already_exists'
  | 'binary_missing'
  | 'budget_unenforceable'
  | 'bypass_requires_opt_in'
  | 'client_endpoint_incompatible'
  | 'config_parse_error'
  | 'config_too_large'
  | 'config_unreadable'
  | 'egress_unavailable'
  | 'endpoint_not_allowed'
  | 'endpoint_not_configured'
  | 'forbidden_config_keys'
  | 'git_failed'
  | 'git_not_a_repository'
  | 'git_ref_unresolved'
  | 'host_limit'
  | 'host_not_allowed'
  | 'image_missing'
  | 'immutable_keys'
  | 'inbox_full'
  | 'internal_error'
  | 'invalid_argv'
  | 'invalid_config_path'
  | 'invalid_count'
  | 'invalid_handler'
  | 'invalid_json'
  | 'invalid_name'
  | 'invalid_query'
  | 'invalid_state'
  | 'ir_validation_failed'
  | 'launch_too_large'
  | 'limits_unsupported'
  | 'needs_attention'
  | 'nix_path_invalid'
  | 'no_config_schema'
  | 'no_git_workspace'
  | 'not_found'
  | 'object_init_failed'
  | 'object_not_found'
  | 'origin_not_allowed'
  | 'patch_too_large'
  | 'payload_too_large'
  | 'remote_engine_insecure'
  | 'remote_engine_unsupported'
  | 'runner_error'
  | 'seccomp_unsupported'
  | 'storage_full'
  | 'swarm_not_found'
  | 'token_required'
  | 'turn_not_found'
  | 'unauthorized'
  | 'unknown_edge_endpoint'
  | 'unsafe_bind'
  | 'unsafe_workspace'
  | 'unsupported_format'
  | 'unsupported_media_type'
  | 'unsupported_network'
  | 'validation_failed'
  | 'workspace_outside_roots';

/** Client → server socket.io events on `/swarm`: payload and ack. */
export interface SocketEvents {
  join: { payload: Schemas['JoinCommand']; ack: Schemas['SocketAck_join'] | Schemas['AckFailure'] };
  send_task: { payload: Schemas['SocketTaskCommand']; ack: Schemas['SocketAck_send_task'] | Schemas['AckFailure'] };
  get_status: { payload: Schemas['EmptyCommand']; ack: Schemas['SocketAck_get_status'] | Schemas['AckFailure'] };
  subscribe_logs: { payload: Schemas['LogsCommand']; ack: Schemas['SocketAck_subscribe_logs'] | Schemas['AckFailure'] };
  unsubscribe_logs: { payload: Schemas['LogsCommand']; ack: Schemas['SocketAck_unsubscribe_logs'] | Schemas['AckFailure'] };
  subscribe_events: { payload: Schemas['EventsCommand']; ack: Schemas['SocketAck_subscribe_events'] | Schemas['AckFailure'] };
  unsubscribe_events: { payload: Schemas['EmptyCommand']; ack: Schemas['SocketAck_unsubscribe_events'] | Schemas['AckFailure'] };
}

/** Server → client pushes on `/swarm`: payload. */
export interface SocketPushes {
  agent_output: Schemas['SocketPush_agent_output'];
  message_routed: Schemas['SocketPush_message_routed'];
  message_broadcast: Schemas['SocketPush_message_broadcast'];
  agent_status: Schemas['SocketPush_agent_status'];
  turn_completed: Schemas['SocketPush_turn_completed'];
  needs_attention: Schemas['SocketPush_needs_attention'];
  swarm_started: Schemas['SocketPush_swarm_started'];
  swarm_stopped: Schemas['SocketPush_swarm_stopped'];
  agent_added: Schemas['SocketPush_agent_added'];
  agent_removed: Schemas['SocketPush_agent_removed'];
  topology_changed: Schemas['SocketPush_topology_changed'];
  event: Schemas['SocketPush_event'];
  log_entry: Schemas['SocketPush_log_entry'];
}
