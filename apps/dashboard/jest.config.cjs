module.exports = { ...require('../../jest.preset.cjs'), displayName: 'dashboard', testTimeout: 120000 };
