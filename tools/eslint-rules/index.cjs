/**
 * Local ESLint rules that turn security invariants into lint errors.
 * - no-shell-spawn: no `shell:` option other than literal `false`, no exec/execSync from child_process.
 * - spawn-argv-array: spawn/spawnSync/execFile/execFileSync take a literal argv array, and the file is
 *   not a template or a concatenation.
 * - no-silent-catch: a catch that discards its error carries a `// best-effort:` or `// expected:` reason
 *   (no-silent-catch.cjs).
 */
const { noSilentCatch } = require('./no-silent-catch.cjs');
const CHILD_PROCESS = new Set(['child_process', 'node:child_process']);
const SHELL_CALLS = new Set(['exec', 'execSync']);
const ARGV_CALLS = new Set(['spawn', 'spawnSync', 'execFile', 'execFileSync']);

/** Names bound to child_process functions (`import { spawn as s }`) and namespaces (`import * as cp`). */
function trackChildProcess(context) {
  const fns = new Map();
  const namespaces = new Set();
  return {
    fns,
    namespaces,
    ImportDeclaration(node) {
      if (!CHILD_PROCESS.has(node.source.value)) return;
      for (const spec of node.specifiers) {
        if (spec.type === 'ImportSpecifier') fns.set(spec.local.name, spec.imported.name ?? spec.imported.value);
        else namespaces.add(spec.local.name);
      }
    },
    calleeName(node) {
      const callee = node.callee;
      if (callee.type === 'Identifier') return fns.get(callee.name);
      if (
        callee.type === 'MemberExpression' &&
        callee.object.type === 'Identifier' &&
        namespaces.has(callee.object.name) &&
        callee.property.type === 'Identifier'
      ) {
        return callee.property.name;
      }
      return undefined;
    },
    context,
  };
}

const noShellSpawn = {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid shell execution of commands' },
    schema: [],
    messages: {
      shellOption: 'The `shell` option must be absent or literally `false`: commands are argv arrays, never shell strings.',
      execCall: '`{{name}}` runs a shell string. Use spawn/execFile with an argv array and `shell: false`.',
    },
  },
  create(context) {
    const cp = trackChildProcess(context);
    return {
      ImportDeclaration: cp.ImportDeclaration,
      Property(node) {
        const key = node.key.type === 'Identifier' ? node.key.name : node.key.value;
        if (key !== 'shell' || node.computed) return;
        if (node.value.type === 'Literal' && node.value.value === false) return;
        context.report({ node, messageId: 'shellOption' });
      },
      CallExpression(node) {
        const name = cp.calleeName(node);
        if (name && SHELL_CALLS.has(name)) context.report({ node, messageId: 'execCall', data: { name } });
      },
    };
  },
};

function isStringBuilt(node) {
  if (!node) return false;
  if (node.type === 'TemplateLiteral') return node.expressions.length > 0;
  if (node.type === 'BinaryExpression' && node.operator === '+') return true;
  return false;
}

const spawnArgvArray = {
  meta: {
    type: 'problem',
    docs: { description: 'Require argv arrays for process spawning' },
    schema: [],
    messages: {
      argvNotArray: '`{{name}}` must receive its arguments as an array (argv), not {{kind}}.',
      fileBuilt: '`{{name}}`: the executable must be a constant or a resolved path, not a string built at the call.',
    },
  },
  create(context) {
    const cp = trackChildProcess(context);
    return {
      ImportDeclaration: cp.ImportDeclaration,
      CallExpression(node) {
        const name = cp.calleeName(node);
        if (!name || !ARGV_CALLS.has(name)) return;
        const [file, argv] = node.arguments;
        if (isStringBuilt(file)) context.report({ node: file, messageId: 'fileBuilt', data: { name } });
        if (argv && (argv.type === 'Literal' || argv.type === 'TemplateLiteral' || isStringBuilt(argv))) {
          context.report({ node: argv, messageId: 'argvNotArray', data: { name, kind: 'a string' } });
        }
      },
    };
  },
};

module.exports = {
  meta: { name: 'eslint-plugin-genswarms', version: '0.1.0' },
  rules: { 'no-shell-spawn': noShellSpawn, 'spawn-argv-array': spawnArgvArray, 'no-silent-catch': noSilentCatch },
};
