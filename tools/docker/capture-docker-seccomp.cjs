#!/usr/bin/env node
// Captures the seccomp profile the local Docker engine applies BY DEFAULT to a genswarms-shaped container (every
// capability dropped, no-new-privileges, a non-root user, network none) — read from the OCI bundle the engine
// hands to runc, so the engine has already resolved its capability, architecture and kernel conditions — and
// writes it as libs/runners/assets/docker-default-seccomp.json. The docker runner builds the profile of
// none/isolated agents from it (the engine's default plus the network denies): the capture is never edited by hand.
// Needs root (the bundle is under /run) and a local engine. Usage:
//   node tools/docker/capture-docker-seccomp.cjs [--out FILE] [--image IMAGE]
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '../..');
const DEFAULT_OUT = path.join(ROOT, 'libs/runners/assets/docker-default-seccomp.json');
/** Where dockerd's containerd keeps a running container's bundle (Debian's docker.io, then a system containerd). */
const BUNDLE_ROOTS = [
  '/run/docker/containerd/daemon/io.containerd.runtime.v2.task/moby',
  '/run/containerd/io.containerd.runtime.v2.task/moby',
];
const ARCH = { x64: 'x86_64', arm64: 'aarch64' };

function docker(args) {
  return execFileSync('docker', args, { encoding: 'utf8', shell: false, stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

function option(name, fallback) {
  const at = process.argv.indexOf(name);
  return at > 0 && process.argv[at + 1] !== undefined ? process.argv[at + 1] : fallback;
}

function captureProfile(image) {
  const id = docker([
    'run',
    '-d',
    '--rm',
    '--network',
    'none',
    '--cap-drop',
    'ALL',
    '--security-opt',
    'no-new-privileges:true',
    '--read-only',
    '--user',
    '1000:1000',
    '--entrypoint',
    'sleep',
    image,
    '30',
  ]);
  try {
    for (const root of BUNDLE_ROOTS) {
      const file = path.join(root, id, 'config.json');
      if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8')).linux.seccomp;
    }
    throw new Error(`no OCI bundle for ${id.slice(0, 12)} under ${BUNDLE_ROOTS.join(' or ')}`);
  } finally {
    docker(['rm', '-f', id]);
  }
}

function main() {
  const out = option('--out', DEFAULT_OUT);
  const image = option('--image', 'genswarms/test-agent:latest');
  const arch = ARCH[process.arch];
  if (arch === undefined) throw new Error(`no capture for ${process.arch}`);
  const profile = captureProfile(image);
  if (profile === undefined || profile === null) throw new Error('the engine applied no seccomp profile (seccomp disabled?)');
  const capture = { version: 1, engine: docker(['version', '--format', '{{.Server.Version}}']), arch, capabilities: [], profile };
  fs.writeFileSync(out, `${JSON.stringify(capture, null, 2)}\n`);
  console.log(`capture-docker-seccomp: engine ${capture.engine} ${arch}: ${profile.syscalls.length} rules → ${out}`);
}

try {
  main();
} catch (err) {
  console.error(`capture-docker-seccomp: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
