import { gateStart, parseConfigText } from '@genswarms/ir-gate';

/** The ir-gate functions the validate route uses; injectable so the engine can pass its handler list. */
export interface ConfigValidator {
  readonly parseConfigText: typeof parseConfigText;
  /** The start gate without the runner plan: schema, IR and the network matrix. */
  readonly gateStart: typeof gateStart;
}

/** Default: @genswarms/ir-gate as is. */
export const IR_GATE_VALIDATOR: ConfigValidator = { parseConfigText, gateStart };
