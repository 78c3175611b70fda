import type { AgentWork } from './agent-work';
import { runHostGit } from './host-git';

/** Most files listed by a change summary. */
export const CHANGES_FILES_MAX = 5000;
/** Most commits listed by a change summary. */
export const CHANGES_COMMITS_MAX = 500;
/** Largest unified diff returned (bytes); a larger one is cut and says so. */
export const DIFF_MAX_BYTES = 2 * 1024 * 1024;

export type FileStatus = 'added' | 'modified' | 'deleted' | 'type_changed';

export interface ChangedFile {
  /** The path, shown safely: control characters and bytes that are not UTF-8 as `\xNN`. */
  readonly path: string;
  readonly status: FileStatus;
  /** Lines added and deleted; null for a binary file. */
  readonly additions: number | null;
  readonly deletions: number | null;
}

export interface AgentCommit {
  readonly sha: string;
  readonly author: string;
  readonly date: string;
  readonly subject: string;
}

export interface AgentChanges {
  readonly base: string;
  /** What is compared with `base`: the snapshot of the working tree, else the branch's head. */
  readonly head: string;
  readonly branch: string;
  readonly branch_head: string;
  readonly uncommitted: boolean;
  readonly files: readonly ChangedFile[];
  readonly commits: readonly AgentCommit[];
  readonly truncated: boolean;
  readonly skipped: number;
}

const STATUS: Readonly<Record<string, FileStatus>> = { A: 'added', M: 'modified', D: 'deleted', T: 'type_changed' };

/** The summary of an agent's work: files changed from `base` (committed and not) and the branch's commits. */
export async function listAgentChanges(work: AgentWork): Promise<AgentChanges> {
  const head = work.snapshot ?? work.branchHead;
  const git = { gitDir: work.mirror, emptyHome: work.emptyHome };
  const range = ['--no-renames', '-r', '-z', work.base, head];
  const status = await runHostGit(['diff-tree', '--name-status', ...range], git);
  const numstat = await runHostGit(['diff-tree', '--numstat', ...range], git);
  const counts = parseNumstat(numstat.stdout);
  const files: ChangedFile[] = [];
  const fields = status.stdout.toString('latin1').split('\0');
  for (let i = 0; i + 1 < fields.length && files.length < CHANGES_FILES_MAX; i += 2) {
    const raw = fields[i + 1] as string;
    const n = counts.get(raw);
    files.push({
      path: safePath(raw),
      status: STATUS[fields[i] as string] ?? 'modified',
      additions: n?.[0] ?? null,
      deletions: n?.[1] ?? null,
    });
  }
  const log = await runHostGit(
    [
      'log',
      '-z',
      '--no-decorate',
      '--no-notes',
      '--no-show-signature',
      `--max-count=${CHANGES_COMMITS_MAX}`,
      '--format=%H%n%an%n%aI%n%s',
      `${work.base}..${work.branchHead}`,
      '--',
    ],
    git,
  );
  const commits = log.stdout
    .toString('utf8')
    .split('\0')
    .filter((r) => r !== '')
    .map((r) => {
      const [sha = '', author = '', date = '', subject = ''] = r.split('\n');
      return { sha, author: printableText(author), date, subject: printableText(subject) };
    });
  return {
    base: work.base,
    head,
    branch: work.record.branch,
    branch_head: work.branchHead,
    uncommitted: work.snapshot !== undefined,
    files,
    commits,
    truncated: work.truncated || status.truncated || numstat.truncated || log.truncated || fields.length / 2 > CHANGES_FILES_MAX,
    skipped: work.skipped,
  };
}

/** The unified diff (or `--stat`) of an agent's work from `base`, cut at DIFF_MAX_BYTES with a note. */
export async function agentDiff(work: AgentWork, opts: { stat?: boolean } = {}): Promise<{ text: string; truncated: boolean }> {
  const head = work.snapshot ?? work.branchHead;
  const mode = opts.stat === true ? ['--stat=200', '--summary'] : ['-p', '--no-ext-diff', '--no-textconv', '--no-color', '--full-index'];
  const r = await runHostGit(['diff-tree', '-r', '--no-renames', ...mode, work.base, head], {
    gitDir: work.mirror,
    emptyHome: work.emptyHome,
    maxStdoutBytes: DIFF_MAX_BYTES,
  });
  const text = r.stdout.toString('utf8');
  return r.truncated
    ? { text: `${text}\n[genswarms: diff truncated at ${DIFF_MAX_BYTES} bytes]\n`, truncated: true }
    : { text, truncated: false };
}

function parseNumstat(out: Buffer): Map<string, [number | null, number | null]> {
  const map = new Map<string, [number | null, number | null]>();
  for (const rec of out.toString('latin1').split('\0')) {
    const m = /^(\d+|-)\t(\d+|-)\t([\s\S]*)$/.exec(rec);
    if (m === null) continue;
    const num = (s: string): number | null => (s === '-' ? null : Number(s));
    map.set(m[3] as string, [num(m[1] as string), num(m[2] as string)]);
  }
  return map;
}

/** A path's bytes (latin1-held) as text: valid UTF-8 kept, control characters and invalid bytes as `\xNN`. */
export function safePath(latin1: string): string {
  const bytes = Buffer.from(latin1, 'latin1');
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  if (!text.includes('\uFFFD') || bytes.includes(Buffer.from('\uFFFD'))) return escapeControls(text);
  return [...bytes]
    .map((b) => (b >= 0x20 && b < 0x7f && b !== 0x5c ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, '0')}`))
    .join('');
}

function escapeControls(text: string): string {
  return text.replace(/[\p{Cc}\\]/gu, (c) => (c === '\\' ? '\\\\' : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`));
}

function printableText(s: string): string {
  return s.replace(/[\p{Cc}]/gu, '?').slice(0, 500);
}
