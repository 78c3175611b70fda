/**
 * A strict parser of the Prometheus text exposition format 0.0.4: every line must be a `# HELP`, a
 * `# TYPE` or a sample of the family declared just above; names, label syntax, escapes and values are
 * checked, duplicate series and samples before their TYPE are errors. Throws on the first bad line.
 */
export interface PromSample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}
export interface PromFamily {
  readonly name: string;
  readonly type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
  readonly help: string;
  readonly samples: PromSample[];
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const LABEL = '[a-zA-Z_][a-zA-Z0-9_]*';
const HELP_RE = new RegExp(`^# HELP (${NAME}) (.*)$`);
const TYPE_RE = new RegExp(`^# TYPE (${NAME}) (counter|gauge|histogram|summary|untyped)$`);
const SAMPLE_RE = new RegExp(`^(${NAME})(?:\\{(.*)\\})? (\\S+)(?: (-?[0-9]+))?$`);
const LABEL_PAIR_RE = new RegExp(`^(${LABEL})="((?:[^"\\\\\\n]|\\\\[\\\\"n])*)"(,|$)`);
const VALUE_RE = /^(?:[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|[+-]Inf|NaN)$/;
const SUFFIXES: Record<PromFamily['type'], readonly string[]> = {
  counter: [''],
  gauge: [''],
  untyped: [''],
  histogram: ['_bucket', '_sum', '_count'],
  summary: ['', '_sum', '_count'],
};

function parseLabels(text: string | undefined, line: number): Record<string, string> {
  const labels: Record<string, string> = Object.create(null) as Record<string, string>;
  let rest = text ?? '';
  while (rest !== '') {
    const m = LABEL_PAIR_RE.exec(rest);
    if (m === null) throw new Error(`line ${line}: bad label set {${text}}`);
    const [all, key, raw] = m as unknown as [string, string, string];
    if (key in labels) throw new Error(`line ${line}: duplicate label ${key}`);
    labels[key] = raw.replace(/\\(["\\n])/g, (_s, c: string) => (c === 'n' ? '\n' : c));
    rest = rest.slice(all.length);
  }
  return labels;
}

function parseValue(raw: string, line: number): number {
  if (!VALUE_RE.test(raw)) throw new Error(`line ${line}: bad value ${raw}`);
  return raw === 'NaN' ? NaN : raw.endsWith('Inf') ? (raw.startsWith('-') ? -Infinity : Infinity) : Number(raw);
}

export function parsePromText(text: string): Map<string, PromFamily> {
  if (!text.endsWith('\n')) throw new Error('exposition must end with a newline');
  const families = new Map<string, PromFamily>();
  const helps = new Map<string, string>();
  const series = new Set<string>();
  let current: PromFamily | undefined;
  text
    .slice(0, -1)
    .split('\n')
    .forEach((l, i) => {
      const line = i + 1;
      if (l === '') return;
      const help = HELP_RE.exec(l);
      if (help !== null) {
        helps.set(help[1] as string, help[2] as string);
        return;
      }
      const type = TYPE_RE.exec(l);
      if (type !== null) {
        const name = type[1] as string;
        if (families.has(name)) throw new Error(`line ${line}: second TYPE for ${name}`);
        current = { name, type: type[2] as PromFamily['type'], help: helps.get(name) ?? '', samples: [] };
        families.set(name, current);
        return;
      }
      if (l.startsWith('#')) throw new Error(`line ${line}: unexpected comment ${l}`);
      const m = SAMPLE_RE.exec(l);
      if (m === null) throw new Error(`line ${line}: not a sample: ${l}`);
      const name = m[1] as string;
      if (current === undefined || !SUFFIXES[current.type].some((s) => `${current!.name}${s}` === name))
        throw new Error(`line ${line}: sample ${name} outside its family`);
      const labels = parseLabels(m[2], line);
      const key = `${name}${JSON.stringify(Object.entries(labels).sort())}`;
      if (series.has(key)) throw new Error(`line ${line}: duplicate series ${key}`);
      series.add(key);
      current.samples.push({ name, labels, value: parseValue(m[3] as string, line) });
    });
  return families;
}
