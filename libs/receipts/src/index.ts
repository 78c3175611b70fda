/** @genswarms/receipts: Bounded readers and the turn-receipt protocol. */
export const PACKAGE_NAME = '@genswarms/receipts';
