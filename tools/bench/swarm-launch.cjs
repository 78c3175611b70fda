#!/usr/bin/env node
'use strict';
// `npm run bench:swarm-launch -- [agents] [turns]` (docs/runners.md "swarm"): receipt latency on the remote node and the
// launch time of N agents across the two-node swarm of tools/docker/two-node-swarm.sh. Runs the TypeScript sources
// (tools/bin/load-ts.cjs) with the @genswarms/source export condition, so the libraries need no build.
require('../bin/run-bench-main.cjs').runBenchMain(__filename, 'swarm-launch', 'runSwarmLaunchBench');
