// One metric family written from a snapshot at scrape time, what Prometheus's client libraries
// call a custom collector (Go's ConstMetric, Python's CounterMetricFamily). /metrics reads its
// facts from /status, which already counts: a count there is exported as a counter with its
// absolute value, which prom-client's Counter cannot take (it has inc() only, and an inc() of the
// difference to the last scrape breaks when a count starts again, as a unit made anew does).
// prom-client's label-less metrics always show a sample (0 until set); an unknown value here has
// none. A family registers in prom-client's Registry, which only calls get() and reset().
export type Labels = Record<string, string>;

export class MetricFamily {
  private values: Array<{ labels: Labels; value: number }> = [];

  constructor(
    readonly name: string,
    readonly help: string,
    readonly type: 'counter' | 'gauge',
  ) {}

  /** One sample; an unknown value (null, undefined, not a finite number) is left out. */
  add(value: number | null | undefined, labels: Labels = {}): void {
    if (typeof value === 'number' && Number.isFinite(value)) this.values.push({ labels, value });
  }

  get(): {
    name: string;
    help: string;
    type: 'counter' | 'gauge';
    values: Array<{ labels: Labels; value: number }>;
    aggregator: 'sum';
  } {
    return { name: this.name, help: this.help, type: this.type, values: this.values, aggregator: 'sum' };
  }

  reset(): void {
    this.values = [];
  }
}
