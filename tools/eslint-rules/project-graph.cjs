/**
 * `@nx/enforce-module-boundaries` reads nx's cached project graph and, when there is none (a fresh
 * clone linted with plain `eslint`), prints a warning and checks nothing. The config calls this first:
 * without a cached graph, nx computes one (`nx show projects`, local only, a few seconds, once).
 */
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

/** The graph file nx writes (its default workspace-data directory). */
function graphFile(root) {
  return path.join(process.env.NX_WORKSPACE_DATA_DIRECTORY ?? path.join(root, '.nx', 'workspace-data'), 'project-graph.json');
}

function ensureProjectGraph(root) {
  if (fs.existsSync(graphFile(root))) return;
  const nxBin = require.resolve('nx/bin/nx.js', { paths: [root] });
  const r = spawnSync(process.execPath, [nxBin, 'show', 'projects'], {
    cwd: root,
    shell: false,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, NX_DAEMON: 'false' },
    encoding: 'utf8',
  });
  if (r.status !== 0 || !fs.existsSync(graphFile(root))) {
    throw new Error(
      `eslint.config.cjs: nx could not compute the project graph, so module boundaries cannot be checked:\n${r.stderr ?? ''}`,
    );
  }
}

module.exports = { ensureProjectGraph };
