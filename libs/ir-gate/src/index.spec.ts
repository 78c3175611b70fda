import * as lib from './index';

const PINNED = [
  'AGENT_FIELDS_IN_CONFIG', 'AgentConfigSchema', 'AgentSchema', 'BACKEND_TYPES', 'BARE_REFS', 'BackendSchema',
  'CLIENT_PRESETS', 'COMMAND_MAX_WORDS', 'CONFIG_JSON_SCHEMA_PATH', 'CONFIG_MAX_BYTES', 'CONFIG_MAX_DEPTH',
  'CONTENT_ADDRESSED_SCHEMES', 'ClientSchema', 'DEFAULT_BACKEND', 'DEFAULT_DOCKER_IMAGE', 'DEFAULT_MAX_AGENTS',
  'DIGEST_RE', 'ENV_KEY_RE', 'EdgeSchema', 'FORBIDDEN_OBJECT_KEYS', 'HOST_ESCAPE_KEYS', 'IrGateError',
  'MAX_AGENTS_LIMIT', 'NAMED_NETWORK_RE', 'NAME_RE', 'NETWORK_KEYWORDS', 'NameSchema', 'NetworkSchema',
  'OP_NAMES', 'ObjectSchema', 'OptionsSchema', 'SwarmConfigSchema', 'TMUX_RUNNERS', 'TURN_TIMEOUT_MAX_MS',
  'YAML_MAX_ALIAS_COUNT', 'applyOp', 'applyOverlay', 'backendToRef', 'canonicalJson', 'checkOpPolicy', 'compact',
  'configToState', 'edgePair', 'effectiveAgentCap', 'executeReconcile', 'findUnsupportedNetwork', 'fold',
  'forbiddenKeysOfAgent', 'gateStart', 'generateConfigJsonSchema', 'isConverged', 'isName', 'isNetworkSupported',
  'isOpName', 'isRecord', 'isValidRefString', 'mapIrErrorToHttp', 'materialize', 'normalizeNetwork', 'parseConfigText',
  'planReconcile', 'refScheme', 'scaledInstanceNames', 'scanUntrusted', 'skillBasename', 'stateToConfig',
  'summarizeConfig', 'validateAgent', 'validateConfig', 'validateEvent', 'validateObject', 'validateOverlay',
  'validateRef', 'validateState', 'viewBackend',
].sort();

describe('@genswarms/ir-gate public surface', () => {
  it('exports exactly the pinned names', () => {
    expect(Object.keys(lib).sort()).toEqual(PINNED);
  });
});
