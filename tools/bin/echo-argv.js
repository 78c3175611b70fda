#!/usr/bin/env node
'use strict';
// echo-argv: prints {"argv": [...], "env": {...}} as one JSON line, to stdout or, when ECHO_ARGV_OUT
// is set, to that file (exclusive create, mode 0600: never overwrites, never follows a planted link).
// env holds only the variables named in ECHO_ARGV_ENV_NAMES (comma list) that are set.
const fs = require('node:fs');

const names = (process.env.ECHO_ARGV_ENV_NAMES || '')
  .split(',')
  .map((name) => name.trim())
  .filter((name) => name !== '');
const env = Object.create(null);
for (const name of names) {
  if (Object.prototype.hasOwnProperty.call(process.env, name)) env[name] = process.env[name];
}
const line = JSON.stringify({ argv: process.argv.slice(2), env }) + '\n';
const out = process.env.ECHO_ARGV_OUT;
if (out !== undefined && out !== '') {
  fs.writeFileSync(out, line, { flag: 'wx', mode: 0o600 });
} else {
  process.stdout.write(line);
}
