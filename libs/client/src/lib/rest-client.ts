import { ClientError, errorFromBody } from './client-error';
import { OPERATION_ROUTES } from './generated/api-types';
import type { Operations } from './generated/api-types';

export type OperationId = keyof Operations;
/** What `call(op)` resolves to. */
export type ResponseOf<Op extends OperationId> = Operations[Op]['response'];
/** The error codes `call(op)` may reject with (besides the local ones). */
export type ErrorCodeOf<Op extends OperationId> = Operations[Op]['errorCode'];

/** `Record<string, never>` (what the generator writes for "none") and `{}` have no named keys. */
type HasNoKeys<T> = [keyof T] extends [never] ? true : string extends keyof T ? true : false;
type ParamsArg<P> = HasNoKeys<P> extends true ? { readonly params?: undefined } : { readonly params: P };
type BodyArg<B> = [B] extends [undefined] ? { readonly body?: undefined } : { readonly body: B };
type QueryArg<Q> = HasNoKeys<Q> extends true ? { readonly query?: undefined } : { readonly query?: Q };

/** Arguments of one operation: path params, query and body, each typed from the OpenAPI document. */
export type CallArgs<Op extends OperationId> = ParamsArg<Operations[Op]['params']> &
  BodyArg<Operations[Op]['body']> &
  QueryArg<Operations[Op]['query']> & { readonly signal?: AbortSignal };

/** What `send` reads of any operation's arguments (each operation's own shape is checked at `call`). */
interface LooseArgs {
  readonly params?: Readonly<Record<string, unknown>>;
  readonly query?: Readonly<Record<string, unknown>>;
  readonly body?: unknown;
  readonly signal?: AbortSignal;
}

type MaybeArgs<Op extends OperationId> = object extends CallArgs<Op> ? [args?: CallArgs<Op>] : [args: CallArgs<Op>];

export interface ClientOptions {
  /** Server URL, e.g. `http://127.0.0.1:4000`. */
  readonly baseUrl: string;
  /** Bearer token (GENSWARMS_API_TOKEN, or the config token for config routes). */
  readonly token?: string;
  /** Defaults to the global fetch (Node 20). */
  readonly fetch?: typeof fetch;
}

/** The string with each lone surrogate replaced by U+FFFD (String#toWellFormed, not in the es2022 lib). */
function toWellFormed(value: string): string {
  return value.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}

function fillPath(template: string, params: Readonly<Record<string, unknown>> | undefined): string {
  return template.replace(/\{([A-Za-z_]+)\}/g, (_m, name: string) => {
    const value = params?.[name];
    if (typeof value !== 'string') throw new ClientError('invalid_response', `missing path parameter ${name}`);
    // A lone surrogate makes encodeURIComponent throw a URIError (the CLI printed internal_error for
    // `snapshot $'\ud800'`, found by the cli-argv fuzz target): send U+FFFD as URLSearchParams does.
    return encodeURIComponent(toWellFormed(value));
  });
}

function queryString(query: Readonly<Record<string, unknown>> | undefined): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined) search.set(key, String(value));
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

function withText(err: ClientError, text: string): ClientError {
  Object.defineProperty(err, 'text', { value: text, enumerable: false });
  return err;
}

function parseBody(res: Response, raw: string, text: boolean): unknown {
  if (text && res.ok) return raw;
  try {
    return raw === '' ? undefined : (JSON.parse(raw) as unknown);
  } catch (err) {
    throw new ClientError('invalid_response', `HTTP ${res.status} answered a body that is not JSON`, { status: res.status, cause: err });
  }
}

/**
 * Typed REST client: `call(operationId, {params, query, body})` resolves to the operation's success body
 * and rejects with a {@link ClientError} whose `code` is the server's error code.
 */
export class GenswarmsClient {
  private readonly baseUrl: string;
  private readonly token: string | undefined;
  private readonly fetchFn: typeof fetch;

  constructor(opts: ClientOptions) {
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '');
    this.token = opts.token;
    this.fetchFn = opts.fetch ?? fetch;
  }

  async call<Op extends OperationId>(op: Op, ...rest: MaybeArgs<Op>): Promise<ResponseOf<Op>> {
    return (await this.send(op, rest[0] ?? {})).body;
  }

  /**
   * As {@link call}, and also the answer's text exactly as the server sent it (a CLI's `--json` prints it
   * unchanged). A failure's ClientError carries that text as `text`.
   */
  callWithText<Op extends OperationId>(op: Op, args: CallArgs<Op>): Promise<{ body: ResponseOf<Op>; text: string }> {
    return this.send(op, args);
  }

  /**
   * The success answer's text, not parsed: for an operation that also answers a non-JSON variant
   * (`snapshotSwarm` with `?format=yaml`). A failure rejects with a ClientError as `call` does.
   */
  async callText<Op extends OperationId>(op: Op, args: CallArgs<Op>): Promise<string> {
    return (await this.send(op, args, true)).text;
  }

  private async send<Op extends OperationId>(op: Op, args: LooseArgs, raw = false): Promise<{ body: ResponseOf<Op>; text: string }> {
    const route = OPERATION_ROUTES[op];
    const headers: Record<string, string> = { accept: route.text ? 'text/plain' : 'application/json' };
    if (this.token !== undefined) headers['authorization'] = `Bearer ${this.token}`;
    if (args.body !== undefined) headers['content-type'] = 'application/json';
    const url = `${this.baseUrl}${fillPath(route.path, args.params)}${queryString(args.query)}`;
    let res: Response;
    let text: string;
    try {
      res = await this.fetchFn(url, {
        method: route.method,
        headers,
        body: args.body === undefined ? undefined : JSON.stringify(args.body),
        signal: args.signal,
      });
      text = await res.text();
    } catch (err) {
      throw new ClientError('network_error', `${route.method} ${route.path}: no answer from ${this.baseUrl}`, { cause: err });
    }
    let body: unknown;
    try {
      body = parseBody(res, text, route.text || raw);
    } catch (err) {
      if (err instanceof ClientError) throw withText(err, text);
      throw err;
    }
    if (!res.ok) throw withText(errorFromBody(res.status, body), text);
    // The body's shape is the OpenAPI document's answer for this operation (the server validates its answers).
    return { body: body as ResponseOf<Op>, text };
  }
}
