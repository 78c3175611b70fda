import * as path from 'node:path';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The argv of the one npm run that installs a client (pure). `--ignore-scripts`: no package script runs
 * (the native binary ships in a platform package; genswarms finds it there). `--save-exact` records the
 * exact version and lockfile in the prefix; no audit, fund or update-notifier requests.
 */
export function npmInstallArgv(prefix: string, npmPackage: string, version: string): readonly string[] {
  return [
    'install',
    '--prefix',
    prefix,
    '--ignore-scripts',
    '--save-exact',
    '--no-audit',
    '--no-fund',
    '--no-update-notifier',
    '--loglevel=warn',
    `${npmPackage}@${version}`,
  ];
}

/** Variables npm may need to reach a registry (a mirror, a proxy, a CA); passed on only when set. */
const NPM_PASSED_VARIABLES: readonly string[] = [
  'HOME',
  'npm_config_registry',
  'NPM_CONFIG_REGISTRY',
  'npm_config_cache',
  'npm_config_userconfig',
  'HTTPS_PROXY',
  'https_proxy',
  'HTTP_PROXY',
  'http_proxy',
  'NO_PROXY',
  'no_proxy',
  'NODE_EXTRA_CA_CERTS',
];

/** npm's environment, built (not inherited): a fixed PATH led by node's directory (npm's shebang needs node), and the variables above. */
export function npmInstallEnv(env: Env, nodeBinary: string): Record<string, string> {
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  out['PATH'] = [path.dirname(nodeBinary), '/usr/local/bin', '/usr/bin', '/bin'].join(':');
  out['LANG'] = 'C';
  for (const name of NPM_PASSED_VARIABLES) {
    const value = env[name];
    if (value !== undefined && value !== '') out[name] = value;
  }
  return out;
}
