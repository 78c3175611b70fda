import { extractMarkers } from '@genswarms/engine';
import { countPrefixes, formatMarkersBench, makeMarkersInput, MARKERS_INPUT_KINDS, runMarkersBench } from './bench-markers';

describe('markers bench', () => {
  test.each(MARKERS_INPUT_KINDS.flatMap((kind) => [1000, 65536].map((bytes) => [kind, bytes] as const)))(
    'builds a %s input of exactly %d bytes',
    (kind, bytes) => {
      const text = makeMarkersInput(kind, bytes);
      expect(Buffer.byteLength(text)).toBe(bytes);
    },
  );

  it('prose carries a few complete blocks; the hostile shapes are all marker prefixes and yield none', () => {
    expect(extractMarkers(makeMarkersInput('prose', 65536)).blocks.length).toBe(4);
    for (const kind of ['unterminated-to', 'unterminated-broadcast', 'invalid-headers'] as const) {
      const text = makeMarkersInput(kind, 65536);
      expect(extractMarkers(text).blocks).toEqual([]);
      expect(countPrefixes(text)).toBeGreaterThan(2000);
    }
  });

  it('counts marker prefixes, including overlapping and adjacent ones', () => {
    expect(countPrefixes('')).toBe(0);
    expect(countPrefixes('<<SWARM_MSG:<<SWARM_MSG:x <<SWARM_MSG')).toBe(2);
  });

  // Structure only: the figures are printed by main.js, never asserted (no timed tests).
  it('measures every kind and size and reports finite figures in a table', () => {
    const result = runMarkersBench({ sizes: [4096], minSampleMs: 0 });
    expect(result.rows.map((r) => r.kind)).toEqual([...MARKERS_INPUT_KINDS]);
    for (const row of result.rows) {
      for (const value of [row.parseMs, row.baselineMs, row.ratio]) expect(Number.isFinite(value) && value >= 0).toBe(true);
    }
    expect(formatMarkersBench(result).split('\n')).toHaveLength(MARKERS_INPUT_KINDS.length + 2);
  });
});
