import fc from 'fast-check';

const PIECES = [
  '<<SWARM_MSG:TO=b:START>>',
  '<<SWARM_MSG:TO=a-1:START>>\n',
  '<<SWARM_MSG:BROADCAST:START>>',
  '<<SWARM_MSG:END>>',
  '<<SWARM_MSG:',
  '<<SWARM_MSG:TO=:START>>',
  '<<SWARM_MSG:TO=../x:START>>',
  '<<SWARM_MSG:TO=__proto__:START>>',
  '\r\n',
  '\u0000',
  '\ud800',
  'hello',
];

/** reply.md text a hostile agent writes: marker pieces (valid, unterminated, malformed) mixed with text. */
export const replyText: fc.Arbitrary<string> = fc.oneof(
  fc
    .array(fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...PIECES) }, { weight: 1, arbitrary: fc.string({ maxLength: 30 }) }), {
      maxLength: 40,
    })
    .map((p) => p.join('')),
  fc.tuple(fc.constantFrom(...PIECES), fc.integer({ min: 1, max: 20_000 })).map(([p, n]) => p.repeat(n)),
  fc.string({ unit: 'binary', maxLength: 400 }),
);
