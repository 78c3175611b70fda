import { resolve } from 'node:path';

/** Absolute path of the mock-llm CLI (`node <MOCK_LLM_BIN> --port 0 [--script f] [--delay-ms n]`). */
export const MOCK_LLM_BIN: string = resolve(__dirname, '..', '..', 'bin', 'mock-llm.js');
