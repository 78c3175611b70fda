/**
 * Finds the offset of the first JSON syntax error, for a line/column in the message. Node 20's
 * JSON.parse messages sometimes quote the input instead, and messages must never echo contents.
 * Iterative: a depth counter, no recursion.
 */
export function locateJsonError(text: string): number {
  const s = new JsonScanner(text);
  return s.run();
}

class JsonScanner {
  private i = 0;
  private readonly stack: Array<'{' | '['> = [];
  constructor(private readonly t: string) {}

  run(): number {
    let needValue = true;
    for (;;) {
      this.ws();
      if (needValue) {
        if (!this.value()) return this.i;
        needValue = this.pendingMember;
        continue;
      }
      const top = this.stack[this.stack.length - 1];
      if (top === undefined) return this.i < this.t.length ? this.i : -1;
      const c = this.t[this.i];
      if (c === (top === '{' ? '}' : ']')) {
        this.stack.pop();
        this.i++;
        continue;
      }
      if (c !== ',') return this.i;
      this.i++;
      this.ws();
      if (top === '{' && !this.key()) return this.i;
      needValue = true;
    }
  }

  private ws(): void {
    while (this.i < this.t.length && ' \t\r\n'.includes(this.t[this.i] as string)) this.i++;
  }

  private key(): boolean {
    if (!this.string()) return false;
    this.ws();
    if (this.t[this.i] !== ':') return false;
    this.i++;
    this.ws();
    return true;
  }

  /** True after `open` when the container's first member still has to be read. */
  private pendingMember = false;

  /** Reads a scalar, or opens a container (its first member is read by the caller's loop). */
  private value(): boolean {
    this.pendingMember = false;
    const c = this.t[this.i];
    if (c === '"') return this.string();
    if (c === '{' || c === '[') return this.open(c);
    const m = /^(?:-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|true|false|null)/.exec(this.t.slice(this.i, this.i + 400));
    if (m === null) return false;
    this.i += m[0].length;
    return true;
  }

  private open(c: '{' | '['): boolean {
    this.stack.push(c);
    this.i++;
    this.ws();
    if (this.t[this.i] === (c === '{' ? '}' : ']')) {
      this.stack.pop();
      this.i++;
      return true;
    }
    if (c === '{' && !this.key()) return false;
    this.pendingMember = true;
    return true;
  }

  private string(): boolean {
    if (this.t[this.i] !== '"') return false;
    this.i++;
    while (this.i < this.t.length) {
      const c = this.t.charCodeAt(this.i);
      if (c === 0x22) {
        this.i++;
        return true;
      }
      if (c < 0x20) return false;
      if (c === 0x5c) {
        const e = this.t[this.i + 1] ?? '';
        if (e === 'u' ? !/^[0-9a-fA-F]{4}$/.test(this.t.slice(this.i + 2, this.i + 6)) : !'"\\/bfnrt'.includes(e) || e === '') return false;
        this.i += e === 'u' ? 6 : 2;
        continue;
      }
      this.i++;
    }
    return false;
  }
}

/** 1-based line and column of an offset. */
export function lineColumnOf(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lines = before.split('\n');
  return { line: lines.length, column: (lines[lines.length - 1] ?? '').length + 1 };
}
