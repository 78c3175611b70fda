import { parseConfigText, validateConfig } from '@genswarms/ir-gate';

/** The ir-gate functions the validate route uses; injectable so the engine can pass its handler list. */
export interface ConfigValidator {
  readonly parseConfigText: typeof parseConfigText;
  readonly validateConfig: typeof validateConfig;
}

/** Default: @genswarms/ir-gate as is. */
export const IR_GATE_VALIDATOR: ConfigValidator = { parseConfigText, validateConfig };
