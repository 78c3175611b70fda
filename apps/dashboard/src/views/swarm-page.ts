import { h } from 'preact';
import type { JSX } from 'preact';
import { useMemo, useState } from 'preact/hooks';
import { call } from '../lib/api';
import { countByState } from '../lib/format';
import { ActionForm, Field } from './action-form';
import { AgentTable } from './agent-table';
import { EventStream } from './event-stream';
import { ErrorBox } from './issues';
import { TopologyGraph } from './topology-graph';
import { useLiveSwarm } from './use-live-swarm';

/** One swarm: agents table, topology, event stream and actions, all live from pushes. */
export function SwarmPage(props: { swarm: string }): JSX.Element {
  const { model, error } = useLiveSwarm(props.swarm);
  const agents = model.sortedAgents();
  // Recomputed only when agents join or leave, so a push storm re-renders rows, not these.
  const names = useMemo(() => agents.map((a) => a.name), [model.membership]);
  const nameList = useMemo(
    () =>
      h(
        'datalist',
        { id: 'agent-names' },
        names.map((n) => h('option', { key: n, value: n })),
      ),
    [names],
  );
  const graph = useMemo(() => h(TopologyGraph, { topology: model.topology, nodes: names }), [model.topology, names]);
  const events = useMemo(() => h(EventStream, { events: model.events, agents: names }), [model.eventsVersion, names]);
  return h(
    'section',
    {},
    h('nav', { 'aria-label': 'Breadcrumb' }, h('a', { href: '#/' }, 'Swarms'), ' / ', props.swarm),
    h('h1', {}, `Swarm ${props.swarm} `, h('span', { class: `state state-${model.status}`, id: 'swarm-status' }, model.status)),
    h(ErrorBox, { error }),
    h(
      'p',
      { id: 'agent-counts' },
      countByState(agents)
        .map(([s, n]) => `${s}: ${n}`)
        .join(' · ') || 'No agents.',
    ),
    nameList,
    h('h2', {}, 'Agents'),
    h(AgentTable, { swarm: props.swarm, agents }),
    h(
      'div',
      { class: 'columns' },
      h('div', {}, h('h2', {}, 'Topology'), graph),
      h('div', {}, h('h2', {}, 'Actions'), h(SwarmActions, { swarm: props.swarm })),
    ),
    h('h2', {}, 'Events'),
    events,
  );
}

function SwarmActions(props: { swarm: string }): JSX.Element {
  const s = props.swarm;
  const [agent, setAgent] = useState('');
  const [task, setTask] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [content, setContent] = useState('');
  const [base, setBase] = useState('');
  const [count, setCount] = useState('');
  return h(
    'div',
    { class: 'actions' },
    h(
      ActionForm,
      {
        id: 'send-task',
        title: 'Send a task',
        submit: 'Send task',
        run: async () => {
          const r = await call('sendTask', { params: { s, a: agent }, body: { task } });
          return `Sent ${r.id} (queued ${r.queued}).`;
        },
      },
      h(Field, { id: 'task-agent', label: 'Agent', value: agent, onInput: setAgent, list: 'agent-names' }),
      h(Field, { id: 'task-text', label: 'Task', value: task, onInput: setTask, multiline: true }),
    ),
    h(
      ActionForm,
      {
        id: 'send-message',
        title: 'Send a message',
        submit: 'Send message',
        run: async () => {
          await call('sendMessage', { params: { s }, body: { from, to, content } });
          return `Routed ${from} → ${to}.`;
        },
      },
      h(Field, { id: 'msg-from', label: 'From', value: from, onInput: setFrom, list: 'agent-names' }),
      h(Field, { id: 'msg-to', label: 'To', value: to, onInput: setTo, list: 'agent-names' }),
      h(Field, { id: 'msg-content', label: 'Content', value: content, onInput: setContent, multiline: true }),
    ),
    h(
      ActionForm,
      {
        id: 'scale',
        title: 'Scale',
        submit: 'Scale',
        run: async () => {
          const r = await call('scaleAgents', { params: { s, base }, body: { count: Number(count) } });
          return `Added ${r.result.added.length}, removed ${r.result.removed.length}, failed ${r.result.failed.length}.`;
        },
      },
      h(Field, { id: 'scale-base', label: 'Base agent', value: base, onInput: setBase, list: 'agent-names' }),
      h(Field, { id: 'scale-count', label: 'Instances', value: count, onInput: setCount }),
    ),
    h(ActionForm, {
      id: 'restart-swarm',
      title: 'Restart the swarm',
      submit: 'Restart',
      run: async () => (await call('restartSwarm', { params: { s } }), 'Restarted.'),
    }),
    h(ActionForm, {
      id: 'stop-swarm',
      title: 'Stop the swarm',
      submit: 'Stop',
      run: async () => (await call('stopSwarm', { params: { s } }), 'Stopped.'),
    }),
  );
}
