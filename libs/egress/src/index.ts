/** @genswarms/egress: Forwarder plans and socat processes pinned to the LLM endpoint. */
export const PACKAGE_NAME = '@genswarms/egress';
