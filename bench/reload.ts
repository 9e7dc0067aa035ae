// Reloads per display: the time of a reload that finds nothing changed and of one
// that changes one display of three, against loading and validating the same file (the floor
// of any reload), and the longest gap in frames of an unchanged display meanwhile, in frame periods.
import { mkdtempSync, rmSync, writeFileSync, cpSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config/load.js';
import { startService } from '../src/main.js';

const REPO = path.resolve(import.meta.dirname, '..');
const RUNS = 10;

function config(bg: string): object {
  const display = (port: number, color: string) => ({
    displayIp: '127.0.0.1',
    displayPort: String(port),
    displayWidth: '640',
    displayHeight: '160',
    output: { driver: 'virtual' },
    layout: {
      l: {
        title: { coordinates: '0 0 639 99', type: 'text', fontSize: '64', scrollSpeed: '2', backgroundColor: color },
        clock: { coordinates: '0 100 639 159', type: 'date', fontSize: '40', dateFormat: 'HH:mm:ss' },
      },
    },
  });
  return {
    rateLimit: '100000',
    displays: { a: display(9101, bg), b: display(9102, '0 0 80'), c: display(9103, '0 0 80') },
  };
}

const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];

export async function benchReload(): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'mlds-bench-reload-'));
  mkdirSync(path.join(dir, 'fonts'));
  cpSync(path.join(REPO, 'examples/images'), path.join(dir, 'images'), { recursive: true });
  const file = path.join(dir, 'config.json');
  writeFileSync(file, JSON.stringify(config('0 80 0')));
  const svc = await startService({
    configFile: file,
    port: 0,
    host: '127.0.0.1',
    stateDir: path.join(dir, 'state'),
    logToStdout: false,
    recheckSeconds: 0,
  });
  try {
    const long = encodeURIComponent('A destination long enough to scroll all the time across the panel');
    for (const id of ['a', 'b', 'c'])
      await fetch(`${svc.url}/mlds?id=${id}&layout=l&title=${long}`).then((r) => r.arrayBuffer());
    const period = 1000 / svc.runtime.config.fps;
    const sent: number[] = [];
    const unsubscribe = svc.api.onFrame('b', () => sent.push(performance.now()));
    const load: number[] = [],
      same: number[] = [],
      one: number[] = [];
    let gap = 0;
    await new Promise((r) => setTimeout(r, 300));
    for (let i = 0; i < RUNS; i++) {
      let t = performance.now();
      loadConfig(file);
      load.push(performance.now() - t);
      t = performance.now();
      await svc.api.reload();
      same.push(performance.now() - t);
      writeFileSync(file, JSON.stringify(config(i % 2 ? '0 80 0' : '80 0 0')));
      await new Promise((r) => setTimeout(r, 100));
      const from = performance.now();
      const report = await svc.api.reload();
      const to = performance.now();
      one.push(to - from);
      if (report.changedDisplays.join() !== 'a')
        throw new Error(`bench: expected a changed, got ${JSON.stringify(report)}`);
      await new Promise((r) => setTimeout(r, 200));
      // The longest stretch without a frame of b that overlaps the reload.
      const window = sent.filter((x) => x >= from - 200 && x <= to + 200);
      for (let k = 1; k < window.length; k++)
        if (window[k] >= from && window[k - 1] <= to) gap = Math.max(gap, window[k] - window[k - 1]);
    }
    unsubscribe();
    const base = median(load);
    return [
      `${RUNS} reloads each, three 640x160 displays scrolling at ${svc.runtime.config.fps} fps on virtual ` +
        `outputs. Baseline: loading and validating the same config.json (${base.toFixed(2)} ms median).`,
      '',
      '| measure | median | ratio to baseline |',
      '|---|---|---|',
      `| reload, nothing changed | ${median(same).toFixed(2)} ms | ${(median(same) / base).toFixed(2)} |`,
      `| reload, one display of three changed | ${median(one).toFixed(2)} ms | ${(median(one) / base).toFixed(2)} |`,
      '',
      `Longest gap between frames of an unchanged display across those reloads: ${gap.toFixed(1)} ms = ` +
        `**${(gap / period).toFixed(2)} frame periods** (target: at most 2).`,
    ].join('\n');
  } finally {
    await svc.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
