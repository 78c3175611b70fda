import { parsePromText } from './support/prom-text';

/** The test support parser is strict: a scrape that passes it is valid exposition format. */
describe('parsePromText', () => {
  it('reads families, labels with escapes, histograms and special values', () => {
    const m = parsePromText(
      [
        '# HELP a_total Things.',
        '# TYPE a_total counter',
        'a_total{k="v\\"q\\\\\\n"} 3',
        '# TYPE h histogram',
        'h_bucket{le="+Inf"} 2',
        'h_sum 1.5e-3',
        'h_count 2',
        '# TYPE g gauge',
        'g NaN',
        '',
      ].join('\n'),
    );
    expect(m.get('a_total')).toEqual({
      name: 'a_total',
      type: 'counter',
      help: 'Things.',
      samples: [{ name: 'a_total', labels: { k: 'v"q\\\n' }, value: 3 }],
    });
    expect(m.get('h')?.samples.map((s) => s.value)).toEqual([2, 0.0015, 2]);
    expect(m.get('g')?.samples[0]?.value).toBeNaN();
  });

  test.each([
    ['no trailing newline', '# TYPE a gauge\na 1'],
    ['a sample before its TYPE', 'a 1\n'],
    ['a sample of another family', '# TYPE a gauge\nb 1\n'],
    ['a histogram sample without suffix', '# TYPE h histogram\nh 1\n'],
    ['an unquoted label', '# TYPE a gauge\na{k=v} 1\n'],
    ['a bad escape', '# TYPE a gauge\na{k="\\x"} 1\n'],
    ['a duplicate label', '# TYPE a gauge\na{k="1",k="2"} 1\n'],
    ['a duplicate series', '# TYPE a gauge\na{k="1"} 1\na{k="1"} 2\n'],
    ['a word value', '# TYPE a gauge\na one\n'],
    ['a bad metric name', '# TYPE 1a gauge\n1a 1\n'],
    ['a second TYPE', '# TYPE a gauge\n# TYPE a gauge\n'],
    ['an unknown comment', '# TYPE a gauge\n# NOTE x\n'],
  ])('refuses %s', (_label, text) => {
    expect(() => parsePromText(text)).toThrow();
  });
});
