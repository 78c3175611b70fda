/**
 * The layering and process-safety lint rules are real: each violating fixture fails lint, and the
 * matching compliant fixture passes. Linting runs the workspace's own eslint.config.cjs (which makes
 * sure nx's project graph exists, so the module-boundaries rule cannot silently skip itself).
 */
import { ESLint } from 'eslint';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const TYPED_OFF = {
  '@typescript-eslint/switch-exhaustiveness-check': 'off',
  '@typescript-eslint/no-floating-promises': 'off',
  '@typescript-eslint/await-thenable': 'off',
} as const;

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the workspace config is CommonJS by design
const workspaceConfig = require(path.join(ROOT, 'eslint.config.cjs')) as ESLint.Options['baseConfig'][];
// Virtual files are not part of any tsconfig, so type-aware parsing is switched off for them.
const eslint = new ESLint({
  cwd: ROOT,
  overrideConfigFile: true,
  baseConfig: [
    ...(workspaceConfig as never[]),
    { files: ['**/*.ts'], languageOptions: { parserOptions: { projectService: false, project: null } }, rules: TYPED_OFF },
  ],
});

async function ruleIds(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return (result?.messages ?? []).map((m) => m.ruleId ?? `fatal: ${m.message}`);
}

describe('layering rules', () => {
  const NX = '@nx/enforce-module-boundaries';
  const RESTRICTED = 'no-restricted-imports';
  // The layering is nx's rule over the package.json tags; child_process and deep imports stay in no-restricted-imports.
  test.each([
    ['libs/security/src/lib/x.ts', "import { a } from '@genswarms/runners';", 'a core lib importing another lib', NX],
    ['libs/receipts/src/lib/x.ts', "import { a } from '@genswarms/security';", 'receipts importing security', NX],
    ['libs/receipts/src/lib/x.ts', "import { a } from '@genswarms/procctl';", 'a core lib importing a core lib', NX],
    ['libs/ir-gate/src/lib/x.ts', "import { a } from '@genswarms/engine';", 'ir-gate importing engine', NX],
    ['libs/egress/src/lib/x.ts', "import { a } from '@genswarms/runners';", 'egress importing runners (upward)', NX],
    ['libs/runners/src/lib/x.ts', "import { a } from '@genswarms/engine';", 'runners importing a feature lib other than egress', NX],
    ['libs/engine/src/lib/x.ts', "import { a } from '@genswarms/server';", 'a lib importing an app', NX],
    ['apps/cli/src/x.ts', "import { a } from '@genswarms/server';", 'an app importing an app', NX],
    ['apps/agent/src/lib/x.ts', "import { a } from '@genswarms/security';", 'the agent importing a lib', NX],
    ['tools/src/x.ts', "import { a } from '@genswarms/cli';", 'tools importing an app', NX],
    ['libs/engine/test/x.spec.ts', "import { a } from '@genswarms/server';", 'a spec importing an app', NX],
    ['libs/security/src/lib/x.ts', "import { a } from '@genswarms/test-kit';", 'production code importing the test kit', NX],
    ['libs/engine/src/lib/x.ts', "import { a } from '@genswarms/test-kit';", 'a feature lib importing the test kit', NX],
    ['tools/src/x.ts', "import { a } from '@genswarms/test-kit';", 'tools (production) importing the test kit', NX],
    ['tools/test-kit/src/lib/x.ts', "import { a } from '@genswarms/receipts';", 'the test kit importing a lib', NX],
    ['libs/engine/src/lib/x.ts', "import Docker from 'dockerode';", 'dockerode outside runners', NX],
    ['apps/server/src/x.ts', "import Docker from 'dockerode';", 'dockerode in the server', NX],
    ['libs/engine/test/x.spec.ts', "import Docker from 'dockerode';", 'dockerode in an engine spec', NX],
    ['libs/engine/src/lib/x.ts', "import express from 'express';", 'express outside the server', NX],
    ['apps/cli/src/x.ts', "import { Server } from 'socket.io';", 'socket.io outside the server', NX],
    ['libs/security/src/lib/x.ts', "import Database from 'better-sqlite3';", 'sqlite outside the engine', NX],
    ['libs/engine/src/lib/x.ts', "import { a } from '../../../../libs/runners/src/index';", 'a relative import leaving the project', NX],
    ['libs/engine/src/lib/x.ts', "import { spawn } from 'node:child_process';", 'child_process in the engine', RESTRICTED],
    ['apps/server/src/x.ts', "import * as cp from 'child_process';", 'child_process in the server', RESTRICTED],
    ['apps/server/src/x.ts', "import { a } from '@genswarms/engine/src/lib/store';", 'a deep import past the barrel', RESTRICTED],
  ])('%s: refuses %s (%s)', async (file, code, _why, rule) => {
    expect(await ruleIds(file, `${code}\nvoid a;\n`)).toContain(rule);
  });

  test.each([
    ['libs/egress/src/lib/x.ts', "import { a } from '@genswarms/security';"],
    ['libs/engine/src/lib/x.ts', "import { a } from '@genswarms/runners';"],
    ['libs/runners/src/lib/x.ts', "import { a } from '@genswarms/egress';"],
    ['libs/runners/src/lib/x.ts', "import { a } from '@genswarms/ir-gate';"],
    ['apps/cli/src/x.ts', "import { a } from '@genswarms/engine';"],
    ['libs/runners/src/lib/x.ts', "import Docker from 'dockerode';"],
    ['libs/runners/src/lib/x.ts', "import { spawn } from 'node:child_process';"],
    ['apps/server/src/x.ts', "import express from 'express';"],
    ['libs/engine/src/lib/x.spec.ts', "import { spawn } from 'node:child_process';"],
    ['libs/engine/test/x.spec.ts', "import { a } from '@genswarms/tools';"],
    ['libs/receipts/test/x.spec.ts', "import { a } from '@genswarms/security';"],
    ['libs/security/src/lib/bind/x.spec.ts', "import { a } from '@genswarms/test-kit';"],
    ['libs/receipts/test/support/x.ts', "import { a } from '@genswarms/test-kit';"],
    ['apps/server/test/x.spec.ts', "import { a } from '@genswarms/test-kit';"],
    ['tools/src/fake-tui/x.spec.ts', "import { a } from '@genswarms/test-kit';"],
    ['apps/cli/test/x.spec.ts', "import { Server } from 'socket.io';"],
    ['libs/engine/src/lib/x.ts', "import Database from 'better-sqlite3';"],
    ['apps/server/src/x.ts', "const entry = require.resolve('@genswarms/agent/package.json');"],
  ])('%s: allows %s', async (file, code) => {
    const ids = await ruleIds(file, `${code}\nvoid 0;\n`);
    expect(ids).not.toContain('@nx/enforce-module-boundaries');
    expect(ids).not.toContain('no-restricted-imports');
  });
});

describe('process-safety rules', () => {
  const file = 'libs/runners/src/lib/x.ts';
  test.each([
    ["import { spawn } from 'node:child_process';\nspawn('/bin/ls', ['-l'], { shell: true });", 'genswarms/no-shell-spawn'],
    ["import { spawn } from 'node:child_process';\nconst s = 'sh';\nspawn('/bin/ls', [], { shell: s });", 'genswarms/no-shell-spawn'],
    ["import { exec } from 'node:child_process';\nexec('ls');", 'genswarms/no-shell-spawn'],
    ["import * as cp from 'child_process';\ncp.execSync('ls');", 'genswarms/no-shell-spawn'],
    ["import { spawn } from 'node:child_process';\nspawn('/bin/ls', '-l');", 'genswarms/spawn-argv-array'],
    ["import { execFile as run } from 'node:child_process';\nconst d = 'x';\nrun(`/bin/${d}`, []);", 'genswarms/spawn-argv-array'],
    ["import { spawnSync } from 'node:child_process';\nconst a = 'x';\nspawnSync('/bin/ls', '-l ' + a);", 'genswarms/spawn-argv-array'],
  ])('flags %j', async (code, rule) => {
    expect(await ruleIds(file, code)).toContain(rule);
  });

  test.each([
    "import { spawn } from 'node:child_process';\nspawn('/bin/ls', ['-l'], { shell: false, stdio: 'ignore' });",
    "import * as cp from 'node:child_process';\nconst argv: string[] = [];\ncp.execFile('/bin/ls', argv);",
    "const re = /x/;\nre.exec('x');",
  ])('accepts %j', async (code) => {
    const ids = await ruleIds(file, code);
    expect(ids).not.toContain('genswarms/no-shell-spawn');
    expect(ids).not.toContain('genswarms/spawn-argv-array');
  });
});

describe('the module-boundaries rule cannot skip itself', () => {
  test('without a cached nx project graph, loading the config computes one', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the helper is CommonJS like the config
    const { ensureProjectGraph } = require(path.join(ROOT, 'tools', 'eslint-rules', 'project-graph.cjs')) as {
      ensureProjectGraph(root: string): void;
    };
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-nx-data-'));
    const saved = process.env['NX_WORKSPACE_DATA_DIRECTORY'];
    process.env['NX_WORKSPACE_DATA_DIRECTORY'] = dir;
    try {
      expect(fs.existsSync(path.join(dir, 'project-graph.json'))).toBe(false);
      ensureProjectGraph(ROOT);
      const graph = JSON.parse(fs.readFileSync(path.join(dir, 'project-graph.json'), 'utf8')) as {
        nodes: Record<string, { data: { tags: string[] } }>;
      };
      expect(graph.nodes['runners']?.data.tags).toEqual(expect.arrayContaining(['type:feature', 'scope:runners']));
    } finally {
      if (saved === undefined) delete process.env['NX_WORKSPACE_DATA_DIRECTORY'];
      else process.env['NX_WORKSPACE_DATA_DIRECTORY'] = saved;
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
