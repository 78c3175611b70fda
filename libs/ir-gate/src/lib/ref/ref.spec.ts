import { validateRef } from './ref';

describe('validateRef (docs/ir.md)', () => {
  test.each([
    [null, 'ref_not_an_object'],
    ['local', 'ref_not_an_object'],
    [[{ ref: 'local' }], 'ref_not_an_object'],
    [{}, 'missing_ref'],
    [{ ref: '' }, 'missing_ref'],
    [{ ref: '   ' }, 'missing_ref'],
    [{ ref: 7 }, 'invalid_ref_string'],
    [{ ref: 'docker' }, 'invalid_ref_string'],
    [{ ref: ':body' }, 'invalid_ref_string'],
    [{ ref: 'scheme:' }, 'invalid_ref_string'],
    [{ ref: 'oci:img' }, 'missing_kind'],
    [{ ref: 'swarmidx:pkg' }, 'missing_kind'],
    [{ ref: 'oci:img', kind: 'binary' }, 'invalid_kind'],
    [{ ref: 'inline:a', kind: 1 }, 'invalid_kind'],
    [{ ref: 'ssh' }, 'missing_host'],
    [{ ref: 'ssh', host: ' ' }, 'missing_host'],
    [{ ref: 'local', image: '' }, 'invalid_image'],
    [{ ref: 'local', image: 3 }, 'invalid_image'],
    [{ ref: 'local', opts: [] }, 'invalid_opts'],
    [{ ref: 'local', opts: 'x' }, 'invalid_opts'],
    [{ ref: 'model:x', attested: 'yes' }, 'invalid_attested'],
    [{ ref: 'oci:i', kind: 'data', digest: 'sha256:XYZ' }, 'invalid_digest'],
  ])('%j → %s', (x, code) => {
    expect(validateRef(x)).toEqual(expect.objectContaining({ code }));
  });

  test('checks in order: kind before host before image before opts before attested', () => {
    expect(validateRef({ ref: 'oci:i', kind: 'x', image: '', opts: 1, attested: 1 })?.code).toBe('invalid_kind');
    expect(validateRef({ ref: 'ssh', image: '', opts: 1 })?.code).toBe('missing_host');
    expect(validateRef({ ref: 'local', image: '', opts: 1, attested: 1 })?.code).toBe('invalid_image');
    expect(validateRef({ ref: 'local', opts: 1, attested: 1 })?.code).toBe('invalid_opts');
  });

  test.each([
    [{ ref: 'local' }],
    [{ ref: 'ssh', host: 'u@h' }],
    [{ ref: 'oci:genswarms/agent:latest', kind: 'data' }],
    [{ ref: 'model:openai/gpt', attested: true }],
    [{ ref: 'handler:recorder', kind: 'code', opts: {} }],
  ])('accepts %j', (x) => {
    expect(validateRef(x)).toBeNull();
  });

  test.each([
    [{ ref: 'oci:i', kind: 'data' }, 'missing_digest'],
    [{ ref: 'local', digest: 'sha256:ab' }, 'unexpected_digest'],
  ])('resolved form: %j → %s', (x, code) => {
    expect(validateRef(x, { resolved: true })?.code).toBe(code);
    expect(validateRef(x)).toBeNull();
  });

  test('resolved form accepts a content-addressed ref with a digest', () => {
    expect(validateRef({ ref: 'oci:i', kind: 'data', digest: 'sha256:0a1b' }, { resolved: true })).toBeNull();
  });
});
