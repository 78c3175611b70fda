import * as lib from './index';

describe('@genswarms/engine public surface', () => {
  it('exports exactly the pinned names', () => {
    expect(Object.keys(lib).sort()).toEqual(['PACKAGE_NAME']);
  });
});
