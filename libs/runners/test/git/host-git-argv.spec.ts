import { buildHostGitArgv, buildHostGitEnv, HOST_GIT_BINARY } from '../../src/index';

describe('host git argv and env', () => {
  test('the argv is the absolute binary, every override, then the call', () => {
    const argv = buildHostGitArgv(['diff-tree', '-p', 'a', 'b'], '/m.git');
    expect(argv.slice(0, 3)).toEqual([HOST_GIT_BINARY, '--no-replace-objects', '--git-dir=/m.git']);
    expect(argv.slice(-4)).toEqual(['diff-tree', '-p', 'a', 'b']);
    const overrides = argv.filter((_w, i) => argv[i - 1] === '-c');
    expect(overrides).toEqual(
      expect.arrayContaining([
        'core.hooksPath=/dev/null',
        'core.fsmonitor=false',
        'core.pager=cat',
        'diff.external=',
        'core.sshCommand=false',
        'uploadpack.packObjectsHook=',
        'protocol.allow=never',
        'protocol.file.allow=always',
      ]),
    );
    expect(overrides.some((o) => o.startsWith('safe.directory'))).toBe(false);
  });

  test.each([['GIT_DIR'], ['GIT_CONFIG_PARAMETERS'], ['GIT_EXEC_PATH'], ['GIT_SSH_COMMAND'], ['LD_PRELOAD']])(
    'the env never carries %s',
    (name) => {
      process.env[name] = '/tmp/evil';
      try {
        expect(Object.keys(buildHostGitEnv('/h'))).not.toContain(name);
      } finally {
        delete process.env[name];
      }
    },
  );

  test('the env has no system or global config and an empty HOME', () => {
    expect(buildHostGitEnv('/h')).toMatchObject({
      HOME: '/h',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_ATTR_NOSYSTEM: '1',
      GIT_TERMINAL_PROMPT: '0',
    });
  });
});
