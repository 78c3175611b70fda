import type { CommandDeps, CommandModule } from '../cli/command-module';
import { writeLine } from '../cli/context';
import { formatEvent } from '../cli/format';
import { EXIT } from '../cli/exit-codes';
import type { ExitCode } from '../cli/exit-codes';
import { parseIntArg, usageError } from '../cli/args';
import { sleep } from '../cli/sleep';
import type { Operations, ResponseOf, Schemas } from '@genswarms/client';
import { callOp } from '../client/call';

/** `events -f` polls `since_id` this often (docs/cli.md). */
export const EVENTS_POLL_MS = 1000;
type Query = Operations['queryEvents']['query'];
const LEVELS: readonly NonNullable<Query['level']>[] = ['debug', 'info', 'warning', 'error'];
const CATEGORIES: readonly NonNullable<Query['category']>[] = ['swarm', 'agent', 'object', 'routing', 'backend', 'system'];
const isOneOf = <T extends string>(list: readonly T[], v: string): v is T => list.some((item) => item === v);
const EVENT_TYPE_RE = /^[a-z][a-z0-9_]{0,63}$/;

interface EventsOptions {
  swarm?: string;
  agent?: string;
  level?: string;
  errors?: boolean;
  category?: string;
  type?: string;
  minutes?: string;
  limit?: string;
  follow?: boolean;
  json?: boolean;
}

/** Flags → `/api/events` query; bad values are usage errors (exit 2) before any request. */
export function eventsQuery(opts: EventsOptions): Query {
  if (opts.errors === true && opts.level !== undefined && opts.level !== 'error') throw usageError('--errors means --level error');
  const level = opts.errors === true ? 'error' : opts.level;
  if (level !== undefined && !isOneOf(LEVELS, level)) throw usageError('--level must be debug, info, warning or error');
  const category = opts.category;
  if (category !== undefined && !isOneOf(CATEGORIES, category)) throw usageError(`--category must be one of ${CATEGORIES.join(', ')}`);
  if (opts.type !== undefined && !EVENT_TYPE_RE.test(opts.type)) throw usageError('--type must be a snake_case event type');
  return {
    swarm: opts.swarm,
    agent: opts.agent,
    level,
    category,
    event_type: opts.type,
    minutes: opts.minutes === undefined ? undefined : parseIntArg(opts.minutes, '--minutes', { min: 1, max: 525600 }),
    limit: opts.limit === undefined ? undefined : parseIntArg(opts.limit, '--limit', { min: 1, max: 1000 }),
  };
}

type EventRow = Schemas['StoredEvent'];

function eventsOf(page: ResponseOf<'queryEvents'>): EventRow[] {
  return [...page.events];
}

/** Follow: print the newest page oldest-first, then poll `since_id` every second until interrupted. */
async function follow(deps: CommandDeps, query: Query, json: boolean): Promise<ExitCode> {
  const print = (e: EventRow): void => writeLine(deps.ctx.stdout, json ? JSON.stringify(e) : formatEvent(e));
  const first = eventsOf(await callOp(deps, 'queryEvents', { query }, { json: false })).reverse();
  first.forEach(print);
  let sinceId = first.reduce((max, e) => (e.id > max ? e.id : max), 0);
  while (await sleep(EVENTS_POLL_MS, deps.ctx.signal)) {
    const page = eventsOf(
      await callOp(deps, 'queryEvents', { query: { ...query, minutes: undefined, since_id: sinceId } }, { json: false }),
    );
    for (const e of page) {
      if (e.id > sinceId) sinceId = e.id;
      print(e);
    }
  }
  return EXIT.ok;
}

/** `events [-s swarm] [-a agent] [--level l] [--errors] [--category c] [--type t] [--minutes n] [--limit n] [-f] [--json]`. */
export const eventsCommand: CommandModule = {
  name: 'events',
  register(program, deps): void {
    program
      .command('events')
      .description('Query events (printed oldest first, newest last); -f follows new events until Ctrl-C')
      .addHelpText(
        'after',
        '\nExamples:\n  genswarms events -s demo --errors --minutes 30\n  genswarms events -s demo -a writer --type turn_completed -f',
      )
      .option('-s, --swarm <swarm>', 'only this swarm')
      .option('-a, --agent <agent>', 'only this agent or object')
      .option('--level <level>', 'debug, info, warning or error')
      .option('--errors', 'same as --level error')
      .option('--category <category>', 'swarm, agent, object, routing, backend or system')
      .option('--type <event_type>', 'one event type, e.g. message_routed')
      .option('--minutes <n>', 'only the last n minutes (1-525600)')
      .option('--limit <n>', 'at most n events (1-1000, server default 100)')
      .option('-f, --follow', 'poll for new events every second')
      .option('--json', 'print the server response unchanged (with -f: one JSON event per line)')
      .action(
        deps.action(async (opts: EventsOptions) => {
          const query = eventsQuery(opts);
          const json = opts.json === true;
          if (opts.follow === true) return follow(deps, query, json);
          const body = await callOp(deps, 'queryEvents', { query }, { json });
          if (!json) for (const e of eventsOf(body).reverse()) writeLine(deps.ctx.stdout, formatEvent(e));
          return EXIT.ok;
        }),
      );
  },
};
