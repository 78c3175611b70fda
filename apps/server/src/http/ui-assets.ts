import * as path from 'node:path';
import express from 'express';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { sendError } from './send-error';

/** Where the dashboard is served (docs/dashboard.md). */
export const UI_PATH = '/ui';

/**
 * The served pages' policy: nothing but this server's own files and socket, no inline script or style, no
 * framing, no plugins, no `<base>` rewrites. The dashboard's terminal adopts constructed stylesheets
 * (CSSOM, not inline `<style>`), so `style-src 'self'` holds.
 */
export const UI_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

function uiHeaders(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Content-Security-Policy', UI_CONTENT_SECURITY_POLICY);
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
  next();
}

/**
 * The built dashboard (`@genswarms/dashboard`'s `dist/`), or `undefined` when the package cannot be
 * resolved. Located like the agent entry: by its package.json, never by the server's cwd.
 */
/** Whether the `/ui` mount applies: `/ui` or below, any case (as express matches a mount path). */
export function isUiPath(req: { readonly path: string }): boolean {
  const p = req.path.slice(0, UI_PATH.length + 1).toLowerCase();
  return p === UI_PATH || p === `${UI_PATH}/`;
}

export function defaultUiRoot(): string | undefined {
  try {
    return path.join(path.dirname(require.resolve('@genswarms/dashboard/package.json')), 'dist');
  } catch {
    // expected: a server installed without the dashboard answers 404 under /ui/
    return undefined;
  }
}

/**
 * `GET|HEAD /ui/*` without a token: static files only (HTML, JS, CSS: no data), each with the CSP above.
 * `guards` (the browser guards: Host in loopback mode) run first, so a rebinding page cannot load them
 * either. Any other method falls through to the auth step; an unknown file is 404 here.
 */
export function uiAssets(root: string | undefined, guards: RequestHandler): RequestHandler {
  const router = express.Router({ strict: true, caseSensitive: true });
  const files =
    root === undefined
      ? undefined
      : express.static(root, {
          index: 'index.html',
          redirect: false,
          dotfiles: 'deny',
          fallthrough: true,
          etag: false,
          lastModified: false,
        });
  router.use((req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      next('router');
      return;
    }
    uiHeaders(req, res, next);
  });
  router.use(guards);
  if (files !== undefined) router.use(files);
  router.use((_req, res) => sendError(res, 404, 'not_found', files === undefined ? 'The dashboard is not installed' : 'No such file'));
  return router;
}
