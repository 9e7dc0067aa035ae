// Admin commands on their way to being run: one at a time, a bounded number waiting, at most
// ADMIN_PER_SECOND taken a second, in a lane of their own beside the commands' intake. 8,000
// screenshot commands of a 1080p display, each run as it came, held 8,000 canvases and JPEG
// encodes on libuv's thread pool: RSS 221 -> 401 MB, an ordinary command (whose state journal
// waits for that pool too) delayed 171 s, and the broker link's keepalive timed out. What does
// not fit is refused at once: MLDS_BUSY on the result topic, counted.
import { RateLimiter } from '../util/rate-limiter.js';
import { ADMIN_COMMANDS } from './admin-commands.js';
import { Intake } from './intake.js';
import { MAX_PAYLOAD } from './payload.js';

/** Admin commands taken a second, over every admin topic of the unit (one operator's lane). */
export const ADMIN_PER_SECOND = 20;
/** Admin commands waiting to run; beyond it they are refused. */
export const ADMIN_WAITING = 10;

/**
 * The request id and command a refusal echoes, as runAdmin reads them, and nothing else of the
 * payload: a command only when it is one of the known names (a payload is not quoted back).
 */
export function adminIds(payload: Buffer): { req: string | null; cmd: string | null } {
  const known = (c: unknown) => (typeof c === 'string' && Object.hasOwn(ADMIN_COMMANDS, c) ? c : null);
  if (payload.length > MAX_PAYLOAD) return { req: null, cmd: null };
  const text = payload.toString('utf8').trim();
  if (!text.startsWith('{')) return { req: null, cmd: known(text) };
  try {
    const o = JSON.parse(text) as { req?: unknown; cmd?: unknown } | null;
    if (typeof o !== 'object' || o === null) return { req: null, cmd: null };
    const req = typeof o.req === 'string' || typeof o.req === 'number' ? String(o.req).slice(0, 64) : null;
    return { req, cmd: known(o.cmd) };
  } catch {
    return { req: null, cmd: null };
  }
}

export class AdminIntake {
  private readonly lane: Intake<{ topic: string; payload: Buffer }>;
  private readonly limiter = new RateLimiter(() => ADMIN_PER_SECOND);
  /** Admin commands run (whatever their result) and refused unrun since the start. */
  run = 0;
  shed = 0;

  /** `runOne` runs a payload to its result; `refuse` answers one that is not taken, with why. */
  constructor(
    runOne: (topic: string, payload: Buffer) => Promise<void>,
    private readonly refuse: (topic: string, payload: Buffer, reason: 'rate' | 'queue', message: string) => void,
  ) {
    this.lane = new Intake<{ topic: string; payload: Buffer }>(
      async (a) => {
        this.run++;
        await runOne(a.topic, a.payload);
      },
      ADMIN_WAITING,
      ADMIN_WAITING * MAX_PAYLOAD,
    );
  }

  /** Decided at once, so a flood costs no memory: run in its turn, or refused. */
  offer(topic: string, payload: Buffer): void {
    if (!this.limiter.take('admin'))
      return this.refused(topic, payload, 'rate', `more than ${ADMIN_PER_SECOND} admin commands a second`);
    if (!this.lane.offer({ topic, payload }, payload.length))
      return this.refused(
        topic,
        payload,
        'queue',
        `${this.lane.length} admin commands are waiting to run; send it again shortly`,
      );
  }

  get waiting(): number {
    return this.lane.length;
  }

  private refused(topic: string, payload: Buffer, reason: 'rate' | 'queue', message: string): void {
    this.shed++;
    this.refuse(topic, payload, reason, message);
  }
}
