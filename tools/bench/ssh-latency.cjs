#!/usr/bin/env node
'use strict';
// `npm run bench:ssh-latency -- [turns]` (docs/runners.md "ssh"): receipt latency over a real sshd on loopback.
// Runs the TypeScript sources (tools/bin/load-ts.cjs) with the @genswarms/source export condition, so the libraries
// it imports need no build either.
require('../bin/run-bench-main.cjs').runBenchMain(__filename, 'ssh-latency', 'runSshLatencyBench');
