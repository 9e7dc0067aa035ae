import { parentPort, type Transferable, type Worker } from 'node:worker_threads';

type Reply<R> = { id: number; result: R } | { id: number; error: string };

/**
 * What of `body` can move to a worker thread instead of being copied: its memory when the body
 * is all of it; a slice of a larger buffer (Node's pool) is copied. A body moved is no longer
 * the caller's.
 */
export function movable(body: Uint8Array): Transferable[] {
  const whole = body.byteOffset === 0 && body.byteLength === body.buffer.byteLength;
  return whole && body.buffer instanceof ArrayBuffer ? [body.buffer] : [];
}
interface Pending<R> {
  resolve(r: R): void;
  reject(e: Error): void;
}
interface Thread<R> {
  worker: Worker;
  pending: Map<number, Pending<R>>;
}

/**
 * Jobs run in a worker thread, one after another, so the event loop only pays for handing the
 * job over and taking the answer. The worker starts with the first job and exits after `idleMs`
 * without one, giving back its memory; an idle worker does not keep the process alive. A worker
 * that dies fails the jobs it held, and the next job starts a new one. The worker's module
 * answers with `serveJobs`.
 */
export class JobWorker<J extends object, R> {
  private thread: Thread<R> | undefined;
  private nextId = 0;
  private idle: NodeJS.Timeout | undefined;

  constructor(
    private readonly start: () => Worker,
    private readonly idleMs: number,
    private readonly what: string,
  ) {}

  run(job: J, transfer: Transferable[] = []): Promise<R> {
    const t = this.thread ?? this.spawn();
    if (this.idle) clearTimeout(this.idle);
    this.idle = undefined;
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      t.pending.set(id, { resolve, reject });
      t.worker.ref();
      t.worker.postMessage({ ...job, id }, transfer);
    });
  }

  /** Whether a worker is running (tests check that it goes when idle). */
  get running(): boolean {
    return this.thread !== undefined;
  }

  /** Ends the worker; jobs still pending fail. */
  async close(): Promise<void> {
    if (this.idle) clearTimeout(this.idle);
    this.idle = undefined;
    const t = this.thread;
    this.thread = undefined;
    if (t) await t.worker.terminate();
  }

  private spawn(): Thread<R> {
    const worker = this.start();
    const t: Thread<R> = { worker, pending: new Map() };
    worker.on('message', (r: Reply<R>) => {
      const p = t.pending.get(r.id);
      t.pending.delete(r.id);
      if ('error' in r) p?.reject(new Error(r.error));
      else p?.resolve(r.result);
      if (t.pending.size === 0 && this.thread === t) {
        worker.unref();
        this.idle = setTimeout(() => {
          if (t.pending.size === 0) void this.close();
        }, this.idleMs);
        this.idle.unref();
      }
    });
    const gone = (err: Error) => {
      if (this.thread === t) this.thread = undefined;
      for (const p of t.pending.values()) p.reject(err);
      t.pending.clear();
    };
    worker.on('error', gone);
    worker.on('exit', (code) => gone(new Error(`the ${this.what} thread exited (${code})`)));
    this.thread = t;
    return t;
  }
}

/**
 * The worker's side: each job from JobWorker.run goes to `handle`, one at a time, and its result
 * (or its error's message) goes back; `transfer` names buffers of the result to move, not copy.
 */
export function serveJobs<J, R>(
  handle: (job: J) => R | Promise<R>,
  transfer: (r: R) => Transferable[] = () => [],
): void {
  let chain = Promise.resolve();
  parentPort!.on('message', (job: J & { id: number }) => {
    chain = chain.then(async () => {
      try {
        const result = await handle(job);
        parentPort!.postMessage({ id: job.id, result }, transfer(result));
      } catch (err) {
        parentPort!.postMessage({ id: job.id, error: err instanceof Error ? err.message : String(err) });
      }
    });
  });
}
