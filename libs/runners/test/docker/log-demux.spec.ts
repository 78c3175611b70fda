import { LineSplitter, LogDemuxer } from '../../src/lib/docker/log-demux';

const frame = (kind: number, text: string): Buffer => {
  const payload = Buffer.from(text);
  const header = Buffer.alloc(8);
  header.writeUInt8(kind, 0);
  header.writeUInt32BE(payload.length, 4);
  return Buffer.concat([header, payload]);
};

describe('LogDemuxer', () => {
  it('splits multiplexed frames by stream, across arbitrary chunk boundaries', () => {
    const seen: string[] = [];
    const demux = new LogDemuxer((s, c) => seen.push(`${s}:${c.toString()}`));
    const all = Buffer.concat([frame(1, 'out1\n'), frame(2, 'err1\n'), frame(1, 'out2')]);
    for (let i = 0; i < all.length; i += 3) demux.push(all.subarray(i, i + 3));
    expect(seen).toEqual(['stdout:out1\n', 'stderr:err1\n', 'stdout:out2']);
  });

  it('passes a non-multiplexed stream through as stdout', () => {
    const seen: string[] = [];
    const demux = new LogDemuxer((s, c) => seen.push(`${s}:${c.toString()}`));
    demux.push(Buffer.from('plain text, no frame header\n'));
    demux.push(Buffer.from('more'));
    expect(seen).toEqual(['stdout:plain text, no frame header\n', 'stdout:more']);
  });
});

describe('LineSplitter', () => {
  it('emits whole lines, keeps a multi-byte character split across chunks, flushes the tail', () => {
    const lines: string[] = [];
    const split = new LineSplitter((l) => lines.push(l));
    const bytes = Buffer.from('a\r\nbé\nc');
    split.push(bytes.subarray(0, 5)); // cuts inside "é"
    split.push(bytes.subarray(5));
    split.flush();
    expect(lines).toEqual(['a', 'bé', 'c']);
  });

  it('bounds a line without newline', () => {
    const lines: string[] = [];
    const split = new LineSplitter((l) => lines.push(l));
    split.push(Buffer.alloc(20000, 'x'));
    expect(lines).toHaveLength(1);
  });
});
