// HTTPS beside plain HTTP: the same koa app, the same limits and error answers, on the port of
// config.https. A component, so it is loaded only when `https` is configured and follows
// reloads: a renewed certificate (same paths, new bytes) is swapped in with setSecureContext
// without dropping a connection; a new port or new limits reopen the server.
import { createServer, type Server } from 'node:https';
import { readTlsPair, type TlsPair } from '../config/tls.js';
import type { HttpLimits, ServiceConfig } from '../config/types.js';
import type { Component, RuntimeContext } from '../capability/component-contract.js';
import { HTTPS, type HttpsControl } from '../capability/https.js';
import { closeServer, listen } from './listen.js';
import { refusalLog } from '../log/refusal-log.js';
import { guardUrl, protect, serverOptions } from './server.js';
import type { HttpApp } from './app.js';

export interface HttpsDeps {
  /** The app HTTP serves (it exists once the runtime starts its components). */
  app(): HttpApp | undefined;
  /** The address HTTP listens on; HTTPS listens on the same. */
  host: string;
}

type HttpsComponent = Component & HttpsControl;

type Https = NonNullable<ServiceConfig['https']>;

function loadPair(cfg: Https): TlsPair {
  const read = readTlsPair(cfg.cert, cfg.key);
  if ('faults' in read) throw new Error(read.faults.map((f) => f.message).join('; '));
  return read.pair;
}

export function httpsComponent(deps: HttpsDeps): HttpsComponent {
  let server: Server | undefined;
  let port: number | undefined;
  let opened: { port: number; limits: string; fingerprint: string } | undefined;
  let pair: TlsPair | undefined;
  let renewedAt: string | undefined;
  let lastError: string | undefined;

  const open = async (ctx: RuntimeContext, cfg: Https, limits: HttpLimits) => {
    const app = deps.app();
    if (!app) throw new Error('HTTPS started before the HTTP app exists');
    const next = loadPair(cfg);
    // The app's refusals: HTTPS counts against the same rate windows and log lines as HTTP.
    const tls = { ...serverOptions(limits), cert: next.cert, key: next.key };
    const s = createServer(tls, guardUrl(app.listener, app.refusals, limits));
    protect(s, ctx.log, limits, false, app.refusals);
    // A handshake that fails (plain HTTP sent to this port, an old client) is routine; count it, do not log each.
    const failed = refusalLog(ctx.log, (ip, n) => [{ ip, failed: n }, `TLS handshakes failed: ${n} from ${ip}`]);
    s.on('tlsClientError', (_err, socket) => {
      failed(socket.remoteAddress ?? 'unknown');
      socket.destroy();
    });
    port = await listen(s, cfg.port, deps.host);
    server = s;
    pair = next;
    opened = { port: cfg.port, limits: JSON.stringify(limits), fingerprint: cfg.fingerprint };
    lastError = undefined;
    ctx.log.info({ port, subject: next.subject, notAfter: next.notAfter }, 'https listening');
  };

  const close = async () => {
    const s = server;
    server = undefined;
    port = undefined;
    if (s) await closeServer(s);
  };

  return {
    name: HTTPS.name,
    port: () => port,
    async start(ctx) {
      const cfg = ctx.config().https;
      if (cfg) await open(ctx, cfg, ctx.config().limits);
    },
    async reload(ctx) {
      const cfg = ctx.config().https;
      const limits = ctx.config().limits;
      if (!cfg) return close();
      if (!server || !opened || opened.port !== cfg.port || opened.limits !== JSON.stringify(limits)) {
        await close();
        return open(ctx, cfg, limits);
      }
      if (opened.fingerprint === cfg.fingerprint) return;
      try {
        const next = loadPair(cfg);
        // New handshakes take the new pair; connections already open keep theirs.
        server.setSecureContext({ cert: next.cert, key: next.key });
        pair = next;
        opened.fingerprint = cfg.fingerprint;
        renewedAt = new Date(ctx.clock.now()).toISOString();
        lastError = undefined;
        ctx.log.info({ subject: next.subject, notAfter: next.notAfter }, 'https certificate replaced');
      } catch (err) {
        // Changed again since the configuration was checked: the pair in use stays.
        lastError = (err as Error).message;
        ctx.log.warn({ err: lastError }, 'https certificate not replaced; the current one stays');
      }
    },
    stop: close,
    status: () => ({
      listening: port !== undefined,
      port,
      subject: pair?.subject,
      notAfter: pair?.notAfter,
      expired: pair ? Date.parse(pair.notAfter) < Date.now() : undefined,
      certSha256: pair?.certSha256,
      ...(renewedAt ? { renewedAt } : {}),
      ...(lastError ? { lastError } : {}),
    }),
  };
}
