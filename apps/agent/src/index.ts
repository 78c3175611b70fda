/** @genswarms/agent: genswarms-agent, the built-in headless agent. */
export const PACKAGE_NAME = '@genswarms/agent';
