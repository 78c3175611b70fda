/**
 * genswarms/no-silent-catch: a catch that discards its error is refused unless a `// best-effort:` or
 * `// expected:` comment says why; a catch that uses, reports or rethrows its error passes. The last
 * block proves the workspace config turns the rule on for every project's `src/` (specs are exempt).
 */
import { ESLint, RuleTester } from 'eslint';
import * as path from 'node:path';
import tseslint from 'typescript-eslint';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the rule is CommonJS, loaded the way eslint.config.cjs loads it
const { noSilentCatch } = require('../eslint-rules/no-silent-catch.cjs') as { noSilentCatch: never };

const ROOT = path.resolve(__dirname, '..', '..');
const tester = new RuleTester({ languageOptions: { parser: tseslint.parser, ecmaVersion: 2022, sourceType: 'module' } });
const refused = (code: string): RuleTester.InvalidTestCase => ({ code, errors: [{ messageId: 'silentCatch' }] });

tester.run('no-silent-catch', noSilentCatch, {
  valid: [
    // the error is used
    'try { f(); } catch (e) { log(e); }',
    'p.catch((e) => report(e));',
    'p.catch(function (err) { return fallback(err.code); });',
    'p.then(ok, (e) => report(e));',
    'try { f(); } catch ({ code }) { use(code); }',
    // the failure is rethrown or translated
    'try { f(); } catch { throw new Error("unreadable"); }',
    'p.catch(() => { throw new TypeError("x"); });',
    'try { f(); } catch (e) { if (x) return; throw e; }',
    // a reason comment, in each accepted place and form
    'try { f(); } catch {\n  // best-effort: the temp file may be gone already\n}',
    'try { f(); } catch { /* expected: a missing file means no state yet */ return 0; }',
    'p.catch(() => undefined); // best-effort: the pane may already be closed',
    '// best-effort: the process may have exited already\np.catch(() => undefined);',
    'void p\n  // expected: ENOENT is the answer, nothing to report\n  .catch(() => null);',
    'p.catch(() => undefined /* best-effort: close after an error already reported */);',
    'try { f(); } catch {\n  return false; // expected: an unparsable value is simply not a match\n}',
    // not a promise catch
    'p.then(ok);',
    'p.finally(() => undefined);',
    'obj["catch"](() => undefined);',
  ],
  invalid: [
    refused('try { f(); } catch {}'),
    refused('try { f(); } catch (e) {}'),
    refused('try { f(); } catch (_e) { return null; }'),
    refused('try { f(); } catch (e) { const e2 = 1; use(e2); }'),
    refused('try { f(); } catch { return false; }'),
    refused('p.catch(() => undefined);'),
    refused('p.catch(() => {});'),
    refused('p.catch(() => null);'),
    refused('p.catch((_err) => false);'),
    refused('p.catch(function () { return 0; });'),
    refused('p.then(ok, () => undefined);'),
    refused('p.catch(() => { const f = () => { throw new Error("x"); }; void f; });'),
    // tags without a reason, or the wrong tag, are not reasons
    refused('try { f(); } catch {\n  // best-effort:\n}'),
    refused('try { f(); } catch {\n  // ignore\n}'),
    refused('p.catch(() => undefined); // TODO: later'),
    // a comment two lines above is about something else
    refused('// best-effort: the process may have exited already\n\np.catch(() => undefined);'),
  ],
});

describe('no-silent-catch is on for every project src/', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the workspace config is CommonJS by design
  const workspaceConfig = require(path.join(ROOT, 'eslint.config.cjs')) as never[];
  const eslint = new ESLint({
    cwd: ROOT,
    overrideConfigFile: true,
    baseConfig: [
      ...workspaceConfig,
      {
        files: ['**/*.ts'],
        languageOptions: { parserOptions: { projectService: false, project: null } },
        rules: {
          '@typescript-eslint/switch-exhaustiveness-check': 'off',
          '@typescript-eslint/no-floating-promises': 'off',
          '@typescript-eslint/await-thenable': 'off',
        },
      },
    ],
  });
  const ruleIds = async (file: string): Promise<string[]> => {
    const [r] = await eslint.lintText(
      'export async function f(p: Promise<void>): Promise<void> {\n  await p.catch(() => undefined);\n}\n',
      { filePath: path.join(ROOT, file) },
    );
    return (r?.messages ?? []).map((m) => m.ruleId ?? `fatal: ${m.message}`);
  };

  test.each([
    'libs/engine/src/lib/x.ts',
    'libs/security/src/lib/x.ts',
    'libs/runners/src/lib/x.ts',
    'apps/server/src/x.ts',
    'apps/cli/src/x.ts',
    'apps/agent/src/lib/x.ts',
    'tools/src/x.ts',
  ])('refuses a silent catch in %s', async (file) => {
    expect(await ruleIds(file)).toContain('genswarms/no-silent-catch');
  });

  test.each(['libs/engine/test/x.spec.ts', 'libs/engine/src/lib/x.spec.ts', 'libs/engine/src/lib/test-support/x.ts'])(
    'leaves test code alone: %s',
    async (file) => {
      expect(await ruleIds(file)).not.toContain('genswarms/no-silent-catch');
    },
  );
});
