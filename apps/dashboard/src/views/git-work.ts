import { h } from 'preact';
import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { ResponseOf } from '@genswarms/client';
import { call, ClientError } from '../lib/api';

type Changes = ResponseOf<'agentGitChanges'>;
type Diff = ResponseOf<'agentGitDiff'>;
type GitWorkState =
  { kind: 'loading' } | { kind: 'none' } | { kind: 'ok'; changes: Changes; diff: Diff } | { kind: 'failed'; message: string };

/** The agent's git work from the host's reader: file names, subjects and the diff are the agent's text, shown as text nodes only. */
async function loadGitWork(swarm: string, agent: string): Promise<GitWorkState> {
  const params = { s: swarm, a: agent };
  try {
    const [changes, diff] = await Promise.all([call('agentGitChanges', { params }), call('agentGitDiff', { params })]);
    return { kind: 'ok', changes, diff };
  } catch (err) {
    if (err instanceof ClientError && err.code === 'no_git_workspace') return { kind: 'none' };
    return { kind: 'failed', message: err instanceof ClientError ? `${err.code}: ${err.message}` : 'the git work could not be read' };
  }
}

/** Git workspace section of the agent page (nothing for an agent without one); reloads when `tick` changes. */
export function GitWork(props: { swarm: string; agent: string; tick: number }): JSX.Element | null {
  const [state, setState] = useState<GitWorkState>({ kind: 'loading' });
  useEffect(() => {
    let live = true;
    void loadGitWork(props.swarm, props.agent).then((s) => live && setState(s));
    return () => {
      live = false;
    };
  }, [props.swarm, props.agent, props.tick]);
  if (state.kind === 'none' || state.kind === 'loading') return null;
  if (state.kind === 'failed') return h('section', { id: 'git-work' }, h('h2', {}, 'Changes'), h('p', { class: 'error' }, state.message));
  const { changes, diff } = state;
  return h(
    'section',
    { id: 'git-work' },
    h('h2', {}, 'Changes'),
    h(
      'p',
      {},
      `Branch ${changes.branch}: ${changes.commits.length} commit(s)${changes.uncommitted ? ', uncommitted changes' : ''}, `,
      `${changes.files.length} file(s) changed from ${changes.base.slice(0, 12)}.`,
      changes.truncated ? ' (Some of the work is past a size limit and not shown.)' : '',
    ),
    changes.files.length === 0
      ? null
      : h(
          'table',
          { id: 'git-files', class: 'git-files' },
          h('thead', {}, h('tr', {}, h('th', {}, 'File'), h('th', {}, 'Status'), h('th', {}, '+'), h('th', {}, '−'))),
          h(
            'tbody',
            {},
            changes.files.map((f) =>
              h(
                'tr',
                { key: f.path },
                h('td', {}, f.path),
                h('td', {}, f.status),
                h('td', {}, f.additions === null ? 'bin' : String(f.additions)),
                h('td', {}, f.deletions === null ? 'bin' : String(f.deletions)),
              ),
            ),
          ),
        ),
    changes.commits.length === 0
      ? null
      : h(
          'ol',
          { id: 'git-commits', class: 'git-commits' },
          changes.commits.map((c) => h('li', { key: c.sha }, `${c.sha.slice(0, 12)} ${c.subject} — ${c.author}, ${c.date}`)),
        ),
    h('pre', { id: 'git-diff', class: 'git-diff' }, diff.diff),
  );
}
