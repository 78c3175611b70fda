/**
 * no-silent-catch: a catch that discards its error must say why, in a reason comment.
 *
 * Flagged (the error is discarded):
 * - `try {…} catch {…}` and `catch (e) {…}` whose body never reads `e`;
 * - `p.catch(h)` and `p.then(ok, h)` where `h` is a function that takes no parameter or never reads it
 *   (`.catch(() => undefined)`, `.catch(() => {})`, `.catch(() => null)`, …).
 * A catch whose body throws (rethrows or translates the failure) is not silent and is not flagged.
 *
 * Allowed with a reason comment: `// best-effort: <reason>` (cleanup whose failure changes nothing that
 * matters: unlink a temp file, close, kill what may be gone) or `// expected: <reason>` (the failure is
 * the answer: a probe, a parse turned into a typed result). The comment sits inside the catch (its
 * block or the handler), on the line just above it, or at the end of its last line. The reason is at
 * least a few words — a bare tag is not a reason.
 */
const REASON_RE = /^\s*(?:best-effort|expected):\s*\S.{7,}/;

const FUNCTION_TYPES = new Set(['ArrowFunctionExpression', 'FunctionExpression']);
const NESTED_SCOPES = new Set(['ArrowFunctionExpression', 'FunctionExpression', 'FunctionDeclaration', 'ClassBody']);

/** True when `node` contains a `throw` outside nested functions. */
function throws(node) {
  if (node === null || typeof node !== 'object') return false;
  if (node.type === 'ThrowStatement') return true;
  for (const key of Object.keys(node)) {
    if (key === 'parent') continue;
    const child = node[key];
    if (Array.isArray(child)) {
      if (child.some((c) => c && typeof c.type === 'string' && !NESTED_SCOPES.has(c.type) && throws(c))) return true;
    } else if (child && typeof child.type === 'string' && !NESTED_SCOPES.has(child.type) && throws(child)) {
      return true;
    }
  }
  return false;
}

/** True when the binding pattern `param` declares nothing that is ever read. */
function isUnread(sourceCode, param) {
  if (param === null || param === undefined) return true;
  const names = new Set();
  collectNames(param, names);
  const own = sourceCode.getDeclaredVariables(param.parent).filter((v) => names.has(v.name));
  return own.every((v) => v.references.every((r) => !r.isRead()));
}

function collectNames(pattern, out) {
  if (!pattern) return;
  switch (pattern.type) {
    case 'Identifier':
      out.add(pattern.name);
      return;
    case 'AssignmentPattern':
      collectNames(pattern.left, out);
      return;
    case 'RestElement':
      collectNames(pattern.argument, out);
      return;
    case 'ArrayPattern':
      for (const e of pattern.elements) collectNames(e, out);
      return;
    case 'ObjectPattern':
      for (const p of pattern.properties) collectNames(p.type === 'RestElement' ? p.argument : p.value, out);
      return;
    default:
      return;
  }
}

/** True when a reason comment sits inside [start, end], on the line above `startLine`, or trailing `end`'s line. */
function hasReason(sourceCode, start, end, startLine, endLine) {
  return sourceCode.getAllComments().some((c) => {
    if (!REASON_RE.test(c.value)) return false;
    if (c.range[0] >= start && c.range[1] <= end) return true;
    if (c.loc.end.line === startLine - 1 && c.loc.start.line === c.loc.end.line) {
      // a whole-line comment right above
      const before = sourceCode.lines[c.loc.start.line - 1].slice(0, c.loc.start.column);
      return before.trim() === '';
    }
    return c.range[0] >= end && c.loc.start.line === endLine;
  });
}

const noSilentCatch = {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid catches that discard an error without a reason comment' },
    schema: [],
    messages: {
      silentCatch:
        'This catch discards the error. Handle or report it, rethrow it, or say why it may be dropped with `// best-effort: <reason>` or `// expected: <reason>`.',
    },
  },
  create(context) {
    const sourceCode = context.sourceCode ?? context.getSourceCode();
    const check = (node, param, body, region) => {
      if (!isUnread(sourceCode, param)) return;
      if (throws(body)) return;
      if (hasReason(sourceCode, region.start, region.end, region.startLine, region.endLine)) return;
      context.report({ node, messageId: 'silentCatch' });
    };
    const checkHandler = (call, handler, anchor) => {
      if (!handler || !FUNCTION_TYPES.has(handler.type)) return;
      const body = handler.body;
      check(handler, handler.params[0] ?? null, body, {
        start: anchor.range[0],
        end: call.range[1],
        startLine: anchor.loc.start.line,
        endLine: call.loc.end.line,
      });
    };
    return {
      CatchClause(node) {
        check(node, node.param, node.body, {
          start: node.range[0],
          end: node.range[1],
          startLine: node.loc.start.line,
          endLine: node.loc.end.line,
        });
      },
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type !== 'MemberExpression' || callee.computed || callee.property.type !== 'Identifier') return;
        if (callee.property.name === 'catch') checkHandler(node, node.arguments[0], callee.property);
        else if (callee.property.name === 'then' && node.arguments.length >= 2) checkHandler(node, node.arguments[1], callee.property);
      },
    };
  },
};

module.exports = { noSilentCatch, REASON_RE };
