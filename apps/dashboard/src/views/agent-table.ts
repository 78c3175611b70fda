import { h } from 'preact';
import type { JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ageOf, describeIsolation, describeLlmCalls, describeLlmTokens } from '../lib/format';
import type { AgentStatus } from '../lib/types';
import { visibleRows } from '../lib/virtual-rows';

/** Row height in px; fixed so the table can draw only the visible rows. Matches `.agents tr` in app.css. */
export const AGENT_ROW_PX = 32;
const VIEWPORT_PX = 480;
const COLUMNS = [
  'Agent',
  'State',
  'Backend',
  'Client',
  'Network',
  'Isolation',
  'Turn',
  'Turn age',
  'Inbox',
  'Attention',
  'LLM calls',
  'LLM tokens',
  'Last activity',
];

function row(swarm: string, a: AgentStatus, now: number): JSX.Element {
  return h(
    'tr',
    { key: a.name, 'data-agent': a.name },
    h('td', {}, h('a', { href: `#/swarms/${swarm}/agents/${a.name}` }, a.name)),
    h('td', {}, h('span', { class: `state state-${a.state}` }, a.state)),
    h('td', {}, a.backend),
    h('td', {}, a.client),
    h('td', {}, a.network),
    h('td', {}, describeIsolation(a.isolation)),
    h('td', {}, a.turn ?? '—'),
    h('td', {}, a.turn === null ? '—' : ageOf(a.turn_started_at, now)),
    h('td', {}, String(a.inbox_size)),
    h('td', { title: a.failure?.message }, a.needs_attention?.reason ?? a.failure?.code ?? '—'),
    h('td', {}, describeLlmCalls(a.llm_usage)),
    h('td', {}, describeLlmTokens(a.llm_usage)),
    h('td', {}, ageOf(a.last_activity, now)),
  );
}

/** The agents table: a fixed-height scroller that keeps only the visible rows (plus overscan) in the DOM. */
export function AgentTable(props: { swarm: string; agents: readonly AgentStatus[] }): JSX.Element {
  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 1000); // ages tick locally; no request
    return () => clearInterval(t);
  }, []);
  const win = visibleRows(scrollTop, VIEWPORT_PX, AGENT_ROW_PX, props.agents.length);
  const spacer = (px: number, key: string): JSX.Element | null =>
    px === 0
      ? null
      : h('tr', { key, 'aria-hidden': 'true', class: 'spacer' }, h('td', { colSpan: COLUMNS.length, style: { height: `${px}px` } }));
  return h(
    'div',
    {
      class: 'agents-scroll',
      ref: scroller,
      tabIndex: 0,
      role: 'region',
      'aria-label': `Agents (${props.agents.length})`,
      onScroll: () => setScrollTop(scroller.current?.scrollTop ?? 0),
    },
    h(
      'table',
      { class: 'grid agents', id: 'agents', 'aria-rowcount': props.agents.length + 1 },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          COLUMNS.map((c) => h('th', { key: c, scope: 'col' }, c)),
        ),
      ),
      h(
        'tbody',
        {},
        spacer(win.before, 'before'),
        props.agents.slice(win.start, win.end).map((a) => row(props.swarm, a, now)),
        spacer(win.after, 'after'),
      ),
    ),
  );
}
