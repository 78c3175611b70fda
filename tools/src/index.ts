/** @genswarms/tools: Dev and test tools: mock LLM, fake TUI, echo-argv, bench, lint rules. */
export const PACKAGE_NAME = '@genswarms/tools';
