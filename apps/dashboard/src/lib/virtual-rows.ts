/** Rows drawn beyond each edge of the viewport, so a fast scroll shows no gap. */
export const OVERSCAN_ROWS = 8;

export interface RowWindow {
  readonly start: number;
  readonly end: number;
  /** Pixels above the first drawn row. */
  readonly before: number;
  /** Pixels below the last drawn row. */
  readonly after: number;
}

/** Which of `count` fixed-height rows a viewport shows: only these are in the DOM (1,000 agents stay smooth). */
export function visibleRows(scrollTop: number, viewportPx: number, rowPx: number, count: number, overscan = OVERSCAN_ROWS): RowWindow {
  const first = Math.floor(Math.max(0, scrollTop) / rowPx);
  const start = Math.min(count, Math.max(0, first - overscan));
  const end = Math.min(count, first + Math.ceil(Math.max(0, viewportPx) / rowPx) + overscan);
  return { start, end: Math.max(start, end), before: start * rowPx, after: Math.max(0, count - Math.max(start, end)) * rowPx };
}
