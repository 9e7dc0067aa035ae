// Admin commands, taken from `<prefix>/<unit>/admin` and, with `mqtt.groupAdmin`, from
// `<prefix>/group/<group>/admin` (never from a command topic):
//   {"cmd": "<command>", "req": "<request id>", "adminKey": "<when security.adminKey is set>", ...fields}
//   a bare `reload_config` or `identify` is taken as {"cmd": ...} without a request id.
// Each is answered on `<prefix>/<unit>/admin/result`:
//   {"req", "cmd", "ok": true|false, "code": null|"MLDS_...", "message", ...facts}
// and a long one (load_config, update) first tells its progress: {"req", "cmd", "progress": "<what>", ...facts}.
// The commands and their fields: admin-commands.ts.
import type { RuntimeContext } from '../capability/component-contract.js';
import { sameKey } from '../control/credentials.js';
import { MldsError } from '../errors.js';
import { ADMIN_COMMANDS, type AdminIo } from './admin-commands.js';
import { MAX_PAYLOAD, notJson } from './payload.js';
import type { BrokerLink } from './broker-link.js';
import type { Topics } from './topics.js';

export interface AdminResult {
  req: string | null;
  cmd: string | null;
  ok: boolean;
  code: string | null;
  message: string;
  [fact: string]: unknown;
}

const MAX_REQ = 64;

/** Runs one admin payload and returns its result (progress goes out through `io` meanwhile). */
export async function runAdmin(
  payload: Buffer,
  ctx: RuntimeContext,
  io: Omit<AdminIo, 'progress'> & {
    progress(req: string | null, cmd: string, message: string, facts?: Record<string, unknown>): void;
    /** A command refused for its adminKey: counted and logged as counts by the caller (a line each fills the log). */
    keyRefused(cmd: string | null, req: string | null): void;
  },
): Promise<AdminResult> {
  if (payload.length > MAX_PAYLOAD)
    return refused(
      null,
      null,
      'MLDS_MQTT_TOO_LARGE',
      `the payload is ${payload.length} bytes; at most ${MAX_PAYLOAD} are taken`,
    );
  const text = payload.toString('utf8').trim();
  // A bare payload is a command's name or nothing: other text is not echoed (it may hold a key).
  let fields: Record<string, unknown> = Object.hasOwn(ADMIN_COMMANDS, text) ? { cmd: text } : {};
  if (text.startsWith('{')) {
    try {
      const o = JSON.parse(text) as unknown;
      if (typeof o !== 'object' || o === null || Array.isArray(o))
        return refused(null, null, 'MLDS_MQTT_PAYLOAD', 'the payload must be a JSON object with "cmd"');
      fields = o as Record<string, unknown>;
    } catch {
      return refused(null, null, 'MLDS_MQTT_PAYLOAD', notJson(text));
    }
  }
  const req =
    typeof fields.req === 'string' || typeof fields.req === 'number' ? String(fields.req).slice(0, MAX_REQ) : null;
  const cmd = typeof fields.cmd === 'string' ? fields.cmd.slice(0, 64) : null;
  const key = ctx.config().security?.adminKey;
  // As HTTP compares: both hashed, so the timing shows neither the key's content nor its length.
  if (key !== undefined && !(typeof fields.adminKey === 'string' && sameKey(fields.adminKey, key))) {
    io.keyRefused(cmd, req);
    return refused(req, cmd, 'MLDS_FORBIDDEN', '"adminKey" is missing or wrong: security.adminKey is set on this unit');
  }
  const run = cmd !== null && Object.hasOwn(ADMIN_COMMANDS, cmd) ? ADMIN_COMMANDS[cmd] : undefined;
  if (!run)
    return refused(
      req,
      cmd,
      'MLDS_MQTT_PAYLOAD',
      `unknown admin command; known: ${Object.keys(ADMIN_COMMANDS).join(', ')}`,
    );
  try {
    const r = await run(fields, ctx, { ...io, progress: (m, facts) => io.progress(req, cmd!, m, facts) });
    ctx.log.info({ cmd, req }, `mqtt: admin ${cmd}: ${r.message}`);
    return { req, cmd, ok: true, code: null, ...r };
  } catch (err) {
    const e = err as Error;
    const code = e instanceof MldsError ? e.code : 'MLDS_INTERNAL';
    ctx.log.warn({ cmd, req, code, err: e.message }, `mqtt: admin ${cmd} refused`);
    return {
      ...refused(req, cmd, code, e.message),
      ...(e instanceof MldsError && e.field ? { field: e.field } : {}),
      ...(e instanceof MldsError && e.details ? e.details : {}),
    };
  }
}

function refused(req: string | null, cmd: string | null, code: string, message: string): AdminResult {
  return { req, cmd, ok: false, code, message };
}

/**
 * An admin command from the broker, answered on the result topic; restart and reboot act once
 * the broker has the answer. The link is read at each publish: a load_config may connect anew
 * meanwhile. `changed`: a command that succeeded may have changed the status.
 */
export async function answerAdmin(
  payload: Buffer,
  ctx: RuntimeContext,
  via: {
    link(): BrokerLink | undefined;
    topics(): Topics;
    changed(): void;
    keyRefused(cmd: string | null, req: string | null): void;
  },
): Promise<void> {
  let after: (() => void | Promise<void>) | undefined;
  const result = await runAdmin(payload, ctx, {
    progress: (req, cmd, progress, facts) => {
      via.link()?.publish(via.topics().adminResult, JSON.stringify({ req, cmd, progress, ...facts }), {
        retain: false,
        queued: true,
      });
      // The retained status carries an update's step too (at most one every 5 s).
      via.changed();
    },
    publish: (topic, bytes) => via.link()?.publish(topic, bytes, { retain: false }),
    screenshotTopic: (id) => via.topics().screenshot(id),
    afterReply: (fn) => {
      after = fn;
    },
    keyRefused: via.keyRefused,
  });
  if (!after) {
    via.link()?.publish(via.topics().adminResult, JSON.stringify(result), { retain: false, queued: true });
    if (result.ok) via.changed();
    return;
  }
  await via.link()?.publishAcked(via.topics().adminResult, JSON.stringify(result));
  await after();
}
