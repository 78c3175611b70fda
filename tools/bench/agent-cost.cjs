#!/usr/bin/env node
'use strict';
// `npm run bench:agent-cost -- [--n 1,50] [--backends …]` (docs/benchmarks.md "Host cost per agent"): what one running
// agent costs the host per runner. Runs the TypeScript sources (tools/bin/load-ts.cjs); the server it starts is the
// built apps/server/dist (built first unless --no-build).
require('../bin/run-bench-main.cjs').runBenchMain(__filename, 'agent-cost', 'runAgentCost');
