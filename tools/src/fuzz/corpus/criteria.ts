import { documentedErrorCodes } from './documented-codes';

let codes: ReadonlySet<string> | undefined;

/** Throws unless `code` is one docs/rest-api.md documents ("every refusal a documented error code"). */
export function expectDocumentedCode(code: unknown, where: string): void {
  codes ??= documentedErrorCodes();
  if (typeof code !== 'string' || !codes.has(code))
    throw new Error(`${where}: refusal code ${JSON.stringify(code)} is not documented in docs/rest-api.md`);
}

/** Throws when an input polluted Object.prototype (a parser or merge that forgot a null prototype). */
export function expectPrototypeClean(where: string): void {
  const polluted = Object.getOwnPropertyNames(Object.prototype).filter((k) => !PRISTINE.has(k));
  if (polluted.length > 0) {
    for (const k of polluted) delete (Object.prototype as Record<string, unknown>)[k];
    throw new Error(`${where}: Object.prototype gained ${polluted.join(', ')}`);
  }
}

const PRISTINE = new Set(Object.getOwnPropertyNames(Object.prototype));
