import { runReceiptsBench, summarize } from './bench-receipts';

describe('receipts bench', () => {
  it('computes nearest-rank percentiles', () => {
    const samples = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(summarize(samples)).toEqual({ p50: 50, p90: 90, p99: 99, max: 100 });
  });

  // Structure only: the figures themselves are printed by main.js, never asserted (no timed tests).
  it('measures both paths for every turn and reports finite figures', async () => {
    const result = await runReceiptsBench({ turns: 3, armMs: 5 });
    expect(result.turns).toBe(3);
    for (const stats of [result.watchTurn, result.baseline]) {
      for (const value of Object.values(stats)) expect(Number.isFinite(value) && value >= 0).toBe(true);
    }
  });
});
