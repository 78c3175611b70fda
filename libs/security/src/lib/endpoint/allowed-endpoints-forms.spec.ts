import { buildEndpointPolicy } from './endpoint-policy';
import { SecurityError } from '../errors/security-error';

describe('buildEndpointPolicy allowedEndpoints', () => {
  test.each<[string, string | readonly string[]]>([
    ['the comma string (GENSWARMS_ALLOWED_ENDPOINTS)', 'A.example, b.example ,'],
    ['an array of hosts', ['A.example', ' b.example', '']],
  ])('takes %s', (_what, allowedEndpoints) => {
    expect(buildEndpointPolicy({ llmEndpoint: 'http://llm.local:8080/v1', allowedEndpoints }).allowedHosts).toEqual([
      'llm.local',
      'a.example',
      'b.example',
    ]);
  });

  test.each<[string, unknown]>([
    ['a number', 42],
    ['an object', { host: 'a.example' }],
    ['an array with a non-string', ['a.example', 7]],
    ['null', null],
  ])('refuses %s with invalid_endpoint (not a TypeError)', (_what, allowedEndpoints) => {
    let thrown: unknown;
    try {
      buildEndpointPolicy({ allowedEndpoints: allowedEndpoints as string });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(SecurityError);
    expect(thrown).toMatchObject({ code: 'invalid_endpoint' });
  });
});
