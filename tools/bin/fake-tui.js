#!/usr/bin/env node
'use strict';
// fake-tui: a TUI-like test client for tmux panes. It puts its tty in raw mode, asks for bracketed
// paste (ESC[?2004h), collects pasted text (ESC[200~ ... ESC[201~; pasted CR = newline) and typed
// keys, and on Enter handles the submitted text. A `[genswarms] turn <id> ...` submission
// (docs/messaging.md) gets a receipt: reply.md = "fake-tui: " + content, then done.json, both written atomically
// into the turns directory named in the text.
// Usage: fake-tui.js [--report <file>] [--exit-after-turn] [--crash-after-ms <n>] [screen options] [args...]
// --report: writes {"argv","envNames","submissions":[...]} to <file> (rewritten atomically on change).
// Screen options (a client with an input prompt, for the host's screen rules; any of them turns prompt mode on):
//   --prompt                 draw `fake-tui> ` with the input typed or pasted so far after it
//   --prompt-after-ms <n>    no prompt for n ms; input before it is lost (as OpenCode loses an early paste)
//   --fold-paste             show a paste as `[Pasted N lines]`, not its text
//   --busy-ms <n>            show `fake-tui: working (esc to interrupt)` for n ms before answering a submission
//   --dialog-at-start        show `Allow this action? [1. Yes / 2. No]` instead of the prompt; any input answers it
//   --dialog-after-turn      show that dialog after answering a turn
//   --ignore-enter           Enter does nothing (a client that never takes the paste)
//   --enter-in-burst-is-newline  an Enter that arrives together with other input is a newline in the text, as
//                            Codex treats an Enter inside a fast typed burst; only an Enter alone submits
// In prompt mode the report also has "dialogAnswers" and "discarded" (characters of input that were lost).
const fs = require('node:fs');
const path = require('node:path');

const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';
const HEADER_RE = /^\[genswarms\] turn ([a-z0-9_-]{1,64}) — message (\d+) from ([^\n]*):\n/;
const FOOTER_RE =
  /\nWhen finished, write your reply to (\/[^\n]*)\/([a-z0-9_-]{1,64})\/reply\.md, then write \{"v":1,"turn":"([a-z0-9_-]{1,64})","status":"ok"\} to \/[^\n]*\/done\.json\.$/;

const argv = process.argv.slice(2);
const report = optionValue('--report');
const crashAfter = optionValue('--crash-after-ms');
const state = { argv, envNames: Object.keys(process.env).sort(), submissions: [] };
const promptAfterMs = Number(optionValue('--prompt-after-ms') ?? 0);
const busyMs = Number(optionValue('--busy-ms') ?? 0);
const promptMode = [
  '--prompt',
  '--prompt-after-ms',
  '--fold-paste',
  '--busy-ms',
  '--dialog-at-start',
  '--dialog-after-turn',
  '--ignore-enter',
  '--enter-in-burst-is-newline',
].some((f) => argv.includes(f));
const screen = { promptUp: false, busy: false, dialog: false, pastedLines: 0, burst: false, drawn: '', drawnRows: 0 };
if (promptMode) Object.assign(state, { dialogAnswers: 0, discarded: 0 });
const DIALOG_TEXT = 'Allow this action? [1. Yes / 2. No]';

function optionValue(name) {
  const i = argv.indexOf(name);
  return i === -1 ? undefined : argv[i + 1];
}

function writeAtomic(file, data) {
  const tmp = `${file}.tmp-${process.pid}`;
  fs.writeFileSync(tmp, data, { mode: 0o600 });
  fs.renameSync(tmp, file);
}

function saveReport() {
  if (report !== undefined) writeAtomic(report, JSON.stringify(state));
}

/** Parses a docs/messaging.md turn text; null if the submission is not one. */
function parseTurn(text) {
  const head = HEADER_RE.exec(text);
  const foot = FOOTER_RE.exec(text);
  if (head === null || foot === null || foot[2] !== head[1] || foot[3] !== head[1]) return null;
  const content = text.slice(head[0].length, text.length - foot[0].length);
  return { turn: head[1], seq: Number(head[2]), from: head[3], content, turnsDir: foot[1] };
}

function answer(turn) {
  const dir = path.join(turn.turnsDir, turn.turn);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeAtomic(path.join(dir, 'reply.md'), `fake-tui: ${turn.content}`);
  writeAtomic(path.join(dir, 'done.json'), JSON.stringify({ v: 1, turn: turn.turn, status: 'ok' }));
  process.stdout.write(`fake-tui: answered turn ${turn.turn}\r\n`);
}

function submit(text) {
  state.submissions.push(text);
  saveReport();
  const turn = parseTurn(text);
  if (turn !== null) answer(turn);
  else process.stdout.write(`fake-tui: got ${JSON.stringify(text)}\r\n`);
  if (turn !== null && argv.includes('--exit-after-turn')) process.exit(0);
  return turn;
}

/**
 * The prompt, redrawn in place when its text changed: `fake-tui> ` and the input so far (a folded paste as a
 * placeholder). A long input wraps: the rows it took last time are cleared first.
 */
function drawPrompt() {
  const shown =
    argv.includes('--fold-paste') && screen.pastedLines > 0 ? `[Pasted ${screen.pastedLines} lines]` : line.replace(/\n/g, ' / ');
  const text = `fake-tui> ${shown}`;
  if (screen.drawnRows > 0 && text === screen.drawn) return;
  const up = screen.drawnRows > 1 ? `\x1b[${screen.drawnRows - 1}A` : '';
  process.stdout.write(`${up}\r\x1b[J${text}`);
  screen.drawn = text;
  screen.drawnRows = Math.max(1, Math.ceil([...text].length / (process.stdout.columns || 80)));
}

/** Output that starts a new line below the prompt: the next prompt is drawn from scratch. */
function leavePrompt(text) {
  process.stdout.write(text);
  screen.drawnRows = 0;
}

function showDialog() {
  screen.dialog = true;
  leavePrompt(`\r\x1b[K${DIALOG_TEXT}`);
}

/** Prompt mode: a submission ends the prompt line, shows the busy line for --busy-ms, then answers. */
function submitInPrompt(text) {
  screen.busy = true;
  screen.pastedLines = 0;
  leavePrompt('\r\n');
  if (busyMs > 0) process.stdout.write('fake-tui: working (esc to interrupt)');
  setTimeout(() => {
    if (busyMs > 0) process.stdout.write('\r\x1b[K');
    const turn = submit(text);
    screen.busy = false;
    if (turn !== null && argv.includes('--dialog-after-turn')) showDialog();
    else drawPrompt();
  }, busyMs);
}

/** Prompt mode: what becomes of one chunk of input before it reaches the line editor. */
function promptInput(chunk) {
  if (screen.dialog) {
    screen.dialog = false;
    screen.promptUp = true;
    state.dialogAnswers += 1;
    saveReport();
    leavePrompt('\r\x1b[Kfake-tui: dialog answered\r\n');
    drawPrompt();
    return;
  }
  if (!screen.promptUp || screen.busy) {
    state.discarded += chunk.length;
    saveReport();
    return;
  }
  screen.burst = argv.includes('--enter-in-burst-is-newline') && chunk !== '\r' && chunk !== '\n';
  pending += chunk;
  consume();
  screen.burst = false;
  if (!screen.busy) drawPrompt();
}

let pending = ''; // raw bytes not yet understood (an escape sequence may be split across reads)
let pasting = false;
let line = '';

function consume() {
  for (;;) {
    if (pasting) {
      const end = pending.indexOf(PASTE_END);
      if (end === -1) {
        const keep = Math.max(0, pending.length - (PASTE_END.length - 1));
        line += pending.slice(0, keep).replace(/\r/g, '\n');
        pending = pending.slice(keep);
        return;
      }
      const pasted = pending.slice(0, end).replace(/\r/g, '\n');
      line += pasted;
      screen.pastedLines += pasted.split('\n').length;
      pending = pending.slice(end + PASTE_END.length);
      pasting = false;
      continue;
    }
    const start = pending.indexOf(PASTE_START);
    const enter = pending.search(/[\r\n]/);
    if (enter !== -1 && (start === -1 || enter < start)) {
      line += pending.slice(0, enter);
      pending = pending.slice(enter + 1);
      if (argv.includes('--ignore-enter')) continue;
      if (screen.burst) {
        line += '\n';
        continue;
      }
      const text = line;
      line = '';
      if (promptMode) submitInPrompt(text);
      else submit(text);
      continue;
    }
    if (start === -1) {
      const esc = pending.lastIndexOf('\x1b');
      const keep = esc !== -1 && pending.length - esc < PASTE_START.length ? esc : pending.length;
      line += pending.slice(0, keep);
      pending = pending.slice(keep);
      return;
    }
    line += pending.slice(0, start);
    pending = pending.slice(start + PASTE_START.length);
    pasting = true;
  }
}

if (process.stdin.isTTY) process.stdin.setRawMode(true);
saveReport(); // before "ready": whoever waits for ready may read the report at once
process.stdout.write('\x1b[?2004h');
process.stdout.write(`fake-tui ready (${argv.length} args)\r\n`);
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  if (promptMode) {
    promptInput(chunk);
    return;
  }
  pending += chunk;
  consume();
});
if (promptMode) {
  setTimeout(() => {
    if (argv.includes('--dialog-at-start')) showDialog();
    else {
      screen.promptUp = true;
      drawPrompt();
    }
  }, promptAfterMs);
}
process.stdin.on('end', () => process.exit(0));
if (crashAfter !== undefined) setTimeout(() => process.exit(3), Number(crashAfter));
