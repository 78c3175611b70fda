/**
 * A linear pre-scan of YAML text for nesting, run before the parser: the `yaml` package spends seconds on a
 * document of a few hundred KB that nests thousands of levels (it reports each level as an error), so a
 * document nested deeper than YAML_PRESCAN_MAX_DEPTH is refused without being parsed. The count is an
 * estimate that errs low (quoted text, comments and block scalars are skipped), so it never refuses a
 * config the parser's own CONFIG_MAX_DEPTH check would accept.
 */

/** Flow brackets plus block indentation levels above which the text is not parsed (4 × CONFIG_MAX_DEPTH). */
export const YAML_PRESCAN_MAX_DEPTH = 256;

const BLOCK_SCALAR_RE = /(?:^|[\s:-])[|>][-+0-9]*\s*$/;

class NestingScan {
  private readonly indents: number[] = [];
  private flow = 0;
  private quote: '"' | "'" | null = null;
  private blockIndent = -1;
  max = 0;

  line(raw: string): void {
    const indent = raw.length - raw.trimStart().length;
    const body = raw.slice(indent);
    if (this.blockIndent >= 0) {
      if (body === '' || indent > this.blockIndent) return; // block scalar content: text, not structure
      this.blockIndent = -1;
    }
    if (body === '' || (body.startsWith('#') && this.quote === null)) return;
    if (this.flow === 0 && this.quote === null) {
      while (this.indents.length > 0 && (this.indents[this.indents.length - 1] as number) >= indent) this.indents.pop();
      this.indents.push(indent);
    }
    const dashes = /^(?:[-?]\s+)*/.exec(body)?.[0].replace(/\s+/g, '').length ?? 0;
    const rest = this.inline(body);
    this.max = Math.max(this.max, this.indents.length + dashes + this.flow);
    if (this.flow === 0 && this.quote === null && BLOCK_SCALAR_RE.test(rest)) this.blockIndent = indent;
  }

  /** Counts flow brackets outside quotes and comments; returns the line without its comment. */
  private inline(body: string): string {
    for (let i = 0; i < body.length; i += 1) {
      const c = body[i] as string;
      if (this.quote !== null) {
        if (c === '\\' && this.quote === '"') i += 1;
        else if (c === this.quote) this.quote = null;
        continue;
      }
      const prev = i === 0 ? ' ' : (body[i - 1] as string);
      const tokenStart = /[\s[{,:]/.test(prev);
      if (c === '#' && /\s/.test(prev)) return body.slice(0, i);
      if ((c === '"' || c === "'") && tokenStart) this.quote = c;
      else if (c === '[' || c === '{') {
        this.flow += 1;
        this.max = Math.max(this.max, this.indents.length + this.flow);
      } else if ((c === ']' || c === '}') && this.flow > 0) this.flow -= 1;
    }
    return body;
  }
}

/** True when the text nests deeper than YAML_PRESCAN_MAX_DEPTH (flow brackets plus block indentation). */
export function isYamlNestedTooDeep(text: string): boolean {
  const scan = new NestingScan();
  let start = 0;
  while (start <= text.length) {
    const end = text.indexOf('\n', start);
    scan.line(text.slice(start, end < 0 ? text.length : end).replace(/\r$/, ''));
    if (scan.max > YAML_PRESCAN_MAX_DEPTH) return true;
    if (end < 0) break;
    start = end + 1;
  }
  return false;
}
