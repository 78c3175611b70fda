import type { Colour, Terminal } from './terminal';
import { paint } from './terminal';

/** One column: its header and, when the table is too wide for the TTY, whether it may shrink (to `min`). */
export interface Column {
  readonly header: string;
  readonly shrink?: { readonly min: number };
  readonly align?: 'right';
}

/** A cell: plain text (already made safe by the caller) and an optional colour. */
export interface Cell {
  readonly text: string;
  readonly colour?: Colour;
}

const GAP = '  ';

function cut(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, Math.max(0, width - 1))}…`;
}

/** Natural widths, then the shrinkable columns narrowed (widest first) until the row fits `columns`. */
function fitWidths(cols: readonly Column[], rows: readonly (readonly Cell[])[], columns: number | undefined): number[] {
  const widths = cols.map((c, i) => Math.max(c.header.length, ...rows.map((r) => r[i]?.text.length ?? 0)));
  if (columns === undefined) return widths;
  let over = widths.reduce((n, w) => n + w, 0) + GAP.length * (cols.length - 1) - columns;
  while (over > 0) {
    let widest = -1;
    cols.forEach((c, i) => {
      const w = widths[i] ?? 0;
      if (c.shrink !== undefined && w > c.shrink.min && (widest < 0 || w > (widths[widest] ?? 0))) widest = i;
    });
    if (widest < 0) break;
    widths[widest] = (widths[widest] ?? 0) - 1;
    over -= 1;
  }
  return widths;
}

/**
 * Lines of an aligned table. On a TTY (`term.columns` set) shrinkable columns narrow and every line is
 * cut to the width; colour is applied after layout so it never counts towards the width.
 */
export function renderTable(term: Terminal, cols: readonly Column[], rows: readonly (readonly Cell[])[]): string[] {
  const widths = fitWidths(cols, rows, term.columns);
  const line = (cells: readonly Cell[]): string => {
    let used = 0;
    const parts: string[] = [];
    for (const [i, cell] of cells.entries()) {
      const room = term.columns === undefined ? Infinity : term.columns - used;
      if (room <= 0) break;
      const w = Math.min(widths[i] ?? 0, room);
      const text = cut(cell.text, w);
      const pad = ' '.repeat(i === cells.length - 1 && cols[i]?.align !== 'right' ? 0 : w - text.length);
      parts.push(cols[i]?.align === 'right' ? `${pad}${paint(term, cell.colour, text)}` : `${paint(term, cell.colour, text)}${pad}`);
      used += w + GAP.length;
    }
    return parts.join(GAP).replace(/ +$/, '');
  };
  const header = cols.map((c): Cell => ({ text: c.header, colour: 'bold' }));
  return [line(header), ...rows.map(line)];
}
