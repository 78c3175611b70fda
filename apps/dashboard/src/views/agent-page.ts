import { h } from 'preact';
import type { JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { call } from '../lib/api';
import { ageOf, clientScreenFacts, describeIsolation, describeLlmCalls, describeLlmTokens } from '../lib/format';
import type { HistoryItem, Turn } from '../lib/types';
import { ActionForm, Field } from './action-form';
import { EventStream } from './event-stream';
import { GitWork } from './git-work';
import { ErrorBox } from './issues';
import { TerminalView } from './terminal-view';
import type { TerminalSink } from './terminal-view';
import { useLiveSwarm } from './use-live-swarm';

interface AgentReads {
  readonly turns: readonly Turn[];
  readonly history: readonly HistoryItem[];
}

async function loadReads(swarm: string, agent: string): Promise<AgentReads> {
  const [t, hi] = await Promise.all([
    call('listTurns', { params: { s: swarm, a: agent }, query: { limit: 50 } }),
    call('agentHistory', { params: { s: swarm, a: agent }, query: { limit: 100 } }),
  ]);
  return { turns: t.turns, history: hi.history };
}

/**
 * What the terminal starts from: a tmux agent's pane text now (`…/screen`), else a headless agent's stored
 * output lines (`…/logs`); live `agent_output` lines follow.
 */
async function loadInitialOutput(swarm: string, agent: string): Promise<string[]> {
  // expected: a server without the screen route (older) answers 404; the stored log lines still show
  const params = { s: swarm, a: agent };
  // expected: a server without the screen route (older) answers 404; the stored log lines still show
  const { screen } = await call('agentScreen', { params }).catch(() => ({ screen: null }));
  if (screen !== null) return [...screen, '\x1b[2m(pane text above; live output below)\x1b[0m'];
  const { logs } = await call('agentLogs', { params });
  return logs.map((l) => l.line);
}

/** One agent: status, its git work (when it has a git workspace), turn history with replies (text only), routed messages, live read-only terminal. */
export function AgentPage(props: { swarm: string; agent: string }): JSX.Element {
  const sink = useRef<TerminalSink | undefined>(undefined);
  const pending = useRef<string[]>([]);
  const [reads, setReads] = useState<AgentReads | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const refresh = useRef(() => {
    loadReads(props.swarm, props.agent).then(setReads, setError);
  }).current;
  const loaded = useRef(false);
  const [gitTick, setGitTick] = useState(0);
  // Live lines wait until the stored ones are written, so the terminal stays in order.
  const write = (line: string): void => {
    if (!loaded.current || sink.current === undefined) pending.current.push(line);
    else sink.current.write(line);
  };
  const { model } = useLiveSwarm(props.swarm, (name, p) => {
    if (name === 'agent_output' && p['agent'] === props.agent && typeof p['content'] === 'string') write(p['content']);
    if (name === 'event' && p['event_type'] === 'git_changes' && p['agent'] === props.agent) setGitTick((n) => n + 1);
    if (
      (name === 'turn_completed' && p['agent'] === props.agent) ||
      ((name === 'message_routed' || name === 'message_broadcast') &&
        (p['from'] === props.agent || p['to'] === props.agent || (Array.isArray(p['to']) && p['to'].includes(props.agent))))
    )
      refresh();
  });
  useEffect(() => {
    refresh();
    loadInitialOutput(props.swarm, props.agent)
      .then((lines) => {
        for (const l of lines) sink.current?.write(l);
      })
      .catch(setError)
      .finally(() => {
        loaded.current = true;
        for (const l of pending.current.splice(0)) sink.current?.write(l);
      });
  }, []);
  const a = model.agents.get(props.agent);
  // a live needs_attention push carries the reason only: the agent's status has what its client showed
  const [held, setHeld] = useState<unknown>(undefined);
  useEffect(() => {
    if (a?.state !== 'needs_attention') return;
    call('getAgent', { params: { s: props.swarm, a: props.agent } }).then((st) => setHeld(st.needs_attention), setError);
  }, [a?.state, a?.needs_attention?.reason]);
  const screen = clientScreenFacts(a?.state === 'needs_attention' ? (held ?? a.needs_attention) : null, a?.failure);
  return h(
    'section',
    {},
    h(
      'nav',
      { 'aria-label': 'Breadcrumb' },
      h('a', { href: '#/' }, 'Swarms'),
      ' / ',
      h('a', { href: `#/swarms/${props.swarm}` }, props.swarm),
      ' / ',
      props.agent,
    ),
    h('h1', {}, `Agent ${props.agent} `, h('span', { class: `state state-${a?.state ?? 'unknown'}`, id: 'agent-state' }, a?.state ?? '…')),
    h(ErrorBox, { error }),
    a === undefined
      ? null
      : h(
          'dl',
          { class: 'facts' },
          [
            ['Backend', a.backend],
            ['Client', a.client],
            ['Network', a.network],
            ['Isolation', describeIsolation(a.isolation)],
            ['Turn', a.turn ?? '—'],
            ['Inbox', String(a.inbox_size)],
            ['Needs attention', a.needs_attention?.reason ?? '—'],
            ['Failure', a.failure === null || a.failure === undefined ? '—' : `${a.failure.code}: ${a.failure.message}`],
            ['LLM calls', describeLlmCalls(a.llm_usage)],
            ['LLM tokens', describeLlmTokens(a.llm_usage)],
            ['Last activity', ageOf(a.last_activity, Date.now())],
          ].flatMap(([k, v]) => [h('dt', { key: `${k}-k` }, k), h('dd', { key: `${k}-v` }, v)]),
        ),
    screen === null
      ? null
      : h('div', { class: 'client-screen', id: 'client-screen' }, h('p', {}, screen.title), h('pre', {}, screen.lines.join('\n'))),
    h(AgentActions, { swarm: props.swarm, agent: props.agent, needsAttention: a?.state === 'needs_attention' }),
    h('h2', {}, 'Terminal (read-only)'),
    h(TerminalView, { sink, label: `Output of ${props.agent}` }),
    a?.git_branch === undefined ? null : h(GitWork, { swarm: props.swarm, agent: props.agent, tick: gitTick }),
    h('h2', {}, 'Turns'),
    h(TurnList, { turns: reads?.turns ?? [] }),
    h('h2', {}, 'Messages'),
    h(HistoryList, { history: reads?.history ?? [] }),
    h('h2', {}, 'Events'),
    h(EventStream, { events: model.events, agents: [props.agent], fixedAgent: props.agent }),
  );
}

/** Replies are text nodes: a reply with `<script>` or markdown links stays inert (never innerHTML). */
function TurnList(props: { turns: readonly Turn[] }): JSX.Element {
  if (props.turns.length === 0) return h('p', {}, 'No turns yet.');
  return h(
    'ol',
    { id: 'turns', class: 'turns' },
    props.turns.map((t) =>
      h(
        'li',
        { key: t.id, 'data-turn': t.id },
        h(
          'div',
          { class: 'turn-head' },
          h('span', { class: `state state-${t.status}` }, t.status),
          ` ${t.id} from ${t.from}`,
          t.completed_at === null ? '' : ` · ${t.completed_at}`,
        ),
        t.error === undefined ? null : h('p', { class: 'error' }, t.error),
        h('pre', { class: 'reply' }, t.reply_preview ?? ''),
      ),
    ),
  );
}

function HistoryList(props: { history: readonly HistoryItem[] }): JSX.Element {
  if (props.history.length === 0) return h('p', {}, 'No messages yet.');
  return h(
    'ol',
    { id: 'history', class: 'history' },
    props.history.map((m) =>
      h(
        'li',
        { key: `${m.direction}-${m.id}`, class: m.direction },
        h(
          'span',
          { class: 'dir' },
          m.direction === 'received'
            ? `← ${m.from ?? ''} (${m.kind ?? ''})`
            : `→ ${Array.isArray(m.to) ? m.to.join(', ') : (m.to ?? '')} (${m.type ?? ''})`,
        ),
        ' ',
        h('span', { class: 'preview' }, m.content_preview),
      ),
    ),
  );
}

function AgentActions(props: { swarm: string; agent: string; needsAttention: boolean }): JSX.Element {
  const [task, setTask] = useState('');
  const params = { s: props.swarm, a: props.agent };
  return h(
    'div',
    { class: 'actions' },
    h(
      ActionForm,
      {
        id: 'agent-task',
        title: 'Send a task',
        submit: 'Send task',
        run: async () => {
          const r = await call('sendTask', { params, body: { task } });
          return `Sent ${r.id} (queued ${r.queued}).`;
        },
      },
      h(Field, { id: 'agent-task-text', label: 'Task', value: task, onInput: setTask, multiline: true }),
    ),
    h(ActionForm, {
      id: 'agent-restart',
      title: 'Restart',
      submit: 'Restart agent',
      run: async () => (await call('restartAgent', { params }), 'Restarted.'),
    }),
    props.needsAttention
      ? h(ActionForm, {
          id: 'agent-resume',
          title: 'Resume',
          submit: 'Resume agent',
          run: async () => (await call('resumeAgent', { params }), 'Resumed.'),
        })
      : null,
  );
}
