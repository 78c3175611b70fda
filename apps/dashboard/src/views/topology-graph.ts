import { h } from 'preact';
import type { JSX } from 'preact';
import type { Edge } from '../lib/types';

/** Above this many nodes the graph is unreadable: the edges are listed instead. */
export const GRAPH_MAX_NODES = 60;
const SIZE = 420;

/** The topology as a circle of nodes with directed edges (SVG attributes only: no inline style). */
export function TopologyGraph(props: { topology: readonly Edge[]; nodes: readonly string[] }): JSX.Element {
  const names = [...new Set([...props.nodes, ...props.topology.flatMap((e) => [e.from, ...e.targets])])].sort();
  const edges = props.topology.flatMap((e) => e.targets.map((t) => [e.from, t] as const));
  if (names.length > GRAPH_MAX_NODES) {
    return h(
      'div',
      { id: 'topology' },
      h('p', {}, `${names.length} nodes, ${edges.length} edges (graph drawn up to ${GRAPH_MAX_NODES} nodes).`),
      h(
        'ul',
        { class: 'edges' },
        edges.slice(0, 500).map(([f, t]) => h('li', { key: `${f}>${t}` }, `${f} → ${t}`)),
      ),
    );
  }
  const r = SIZE / 2 - 50;
  const pos = new Map(
    names.map((n, i) => [
      n,
      {
        x: SIZE / 2 + r * Math.cos((2 * Math.PI * i) / Math.max(1, names.length) - Math.PI / 2),
        y: SIZE / 2 + r * Math.sin((2 * Math.PI * i) / Math.max(1, names.length) - Math.PI / 2),
      },
    ]),
  );
  return h(
    'svg',
    {
      id: 'topology',
      viewBox: `0 0 ${SIZE} ${SIZE}`,
      width: SIZE,
      height: SIZE,
      role: 'img',
      'aria-label': `Topology: ${edges.map(([f, t]) => `${f} to ${t}`).join(', ') || 'no edges'}`,
    },
    h(
      'defs',
      {},
      h(
        'marker',
        { id: 'arrow', viewBox: '0 0 10 10', refX: 22, refY: 5, markerWidth: 6, markerHeight: 6, orient: 'auto-start-reverse' },
        h('path', { d: 'M0,0 L10,5 L0,10 z', class: 'arrow' }),
      ),
    ),
    edges.map(([f, t]) => {
      const a = pos.get(f);
      const b = pos.get(t);
      return a === undefined || b === undefined
        ? null
        : h('line', { key: `${f}>${t}`, x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: 'edge', 'marker-end': 'url(#arrow)' });
    }),
    names.map((n) => {
      const p = pos.get(n) ?? { x: 0, y: 0 };
      return h(
        'g',
        { key: n, class: 'node' },
        h('circle', { cx: p.x, cy: p.y, r: 14 }),
        h('text', { x: p.x, y: p.y + 30, 'text-anchor': 'middle' }, n),
      );
    }),
  );
}
