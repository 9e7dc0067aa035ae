// A component that runs one entry per item of a configuration list: the crons, the pollers.
// Across a reload an item that stayed the same keeps its entry (its history, its rhythm, a run
// under way), new items begin, and the entries of items that left are ended.
import type { ServiceConfig } from '../config/types.js';
import type { Component, RuntimeContext } from '../capability/component-contract.js';

export abstract class ConfigEntries<C, E extends { config: C }> implements Component {
  abstract readonly name: string;
  protected ctx: RuntimeContext | undefined;
  protected entries: E[] = [];

  /** The configuration's list this component follows. */
  protected abstract listOf(config: ServiceConfig): C[];
  /** The same item in two configurations: its entry is kept. */
  protected abstract same(a: C, b: C): boolean;
  /** A new entry, already under way (this.ctx is set). */
  protected abstract begin(config: C, index: number): E;
  /** A kept entry takes its item's place in the new list. */
  protected abstract keep(entry: E, config: C, index: number): void;
  /** Ends the entry's timer and aborts what it runs. */
  protected abstract end(entry: E): void;
  /** What the entry runs now (a fetch, a task), for stop() to wait for. */
  protected abstract running(entry: E): Promise<void> | undefined;

  async start(ctx: RuntimeContext): Promise<void> {
    this.ctx = ctx;
    this.entries = this.listOf(ctx.config()).map((config, index) => this.begin(config, index));
    ctx.log.info({ [this.name]: this.entries.length }, `${this.name} started`);
  }

  async reload(ctx: RuntimeContext): Promise<void> {
    this.ctx = ctx;
    const old = [...this.entries];
    this.entries = this.listOf(ctx.config()).map((config, index) => {
      const at = old.findIndex((e) => this.same(e.config, config));
      if (at < 0) return this.begin(config, index);
      // The same object: a run under way settles on it.
      const kept = old.splice(at, 1)[0];
      this.keep(kept, config, index);
      return kept;
    });
    for (const gone of old) this.end(gone);
    ctx.log.info({ [this.name]: this.entries.length }, `${this.name} follow the new configuration`);
  }

  async stop(): Promise<void> {
    const running = this.entries.map((e) => this.running(e)).filter((r) => r !== undefined);
    for (const e of this.entries) this.end(e);
    this.ctx = undefined;
    await Promise.allSettled(running);
  }
}
