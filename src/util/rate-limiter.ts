// Requests (or MQTT commands) per key in one-second windows: HTTP's rateLimit() and its refusals
// count clients with it, the fleet counts command topics.
export class RateLimiter {
  private readonly windows = new Map<string, { second: number; count: number }>();
  constructor(private readonly perSecond: () => number) {}

  /** Counts a request of `ip`; false once it is over the limit in this second. */
  take(ip: string): boolean {
    const second = Math.floor(Date.now() / 1000);
    const w = this.windows.get(ip);
    if (!w || w.second !== second) {
      if (this.windows.size > 10_000) this.windows.clear();
      this.windows.set(ip, { second, count: 1 });
      return true;
    }
    return ++w.count <= this.perSecond();
  }
}
