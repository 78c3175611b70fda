module.exports = { ...require('../../jest.preset.cjs'), displayName: 'ir-gate' };
