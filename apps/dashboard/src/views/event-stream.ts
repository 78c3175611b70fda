import { h } from 'preact';
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { filterEvents } from '../lib/swarm-model';
import type { EventFilter } from '../lib/swarm-model';
import type { EventRow } from '../lib/types';

const LEVELS = ['debug', 'info', 'warning', 'error'];
const CATEGORIES = ['swarm', 'agent', 'object', 'routing', 'backend', 'system'];
/** Events drawn at once (newest first); the model keeps more. */
const SHOWN = 200;

function select(id: string, label: string, value: string, options: readonly string[], onChange: (v: string) => void): JSX.Element {
  return h(
    'label',
    { for: id },
    `${label} `,
    h(
      'select',
      { id, value, onChange: (e: Event) => onChange((e.target as HTMLSelectElement).value) },
      h('option', { value: '' }, 'all'),
      options.map((o) => h('option', { key: o, value: o }, o)),
    ),
  );
}

/** The live event stream with level / category / agent filters (applied in the page). */
export function EventStream(props: { events: readonly EventRow[]; agents: readonly string[]; fixedAgent?: string }): JSX.Element {
  const [filter, setFilter] = useState<EventFilter>({ level: '', category: '', agent: props.fixedAgent ?? '' });
  const rows = filterEvents(props.events, filter, SHOWN);
  return h(
    'div',
    { class: 'events' },
    h(
      'div',
      { class: 'filters' },
      select('ev-level', 'Level', filter.level, LEVELS, (level) => setFilter({ ...filter, level })),
      select('ev-category', 'Category', filter.category, CATEGORIES, (category) => setFilter({ ...filter, category })),
      props.fixedAgent === undefined
        ? select('ev-agent', 'Agent', filter.agent, props.agents, (agent) => setFilter({ ...filter, agent }))
        : null,
    ),
    h(
      'ol',
      { id: 'events', class: 'event-list', 'aria-live': 'off' },
      rows.map((e) =>
        h(
          'li',
          { key: e.id, class: `level-${e.level}`, 'data-event-type': e.event_type },
          h('time', {}, e.timestamp.slice(11, 19)),
          h('span', { class: 'ev-type' }, e.event_type),
          e.agent === null ? null : h('span', { class: 'ev-agent' }, e.agent),
          h('span', { class: 'ev-msg' }, e.message),
        ),
      ),
    ),
  );
}
