// The real service with a DDP display whose receiver port is closed: confirmations and /status
// must tell the truth (the kernel reports the refusal only after the send that drew it), the
// runner must reopen after failures in a row, and a receiver that appears must bring it back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closedUdpPort } from '../helpers/ports.js';
import { sink } from '../helpers/sink.js';
import { baseConfig, get, serviceDir, start, until } from '../helpers/service.js';
import type { RunningService } from '../../src/main.js';
import { ddpReceiver, type Receiver } from './ddp-receiver.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const W = 48,
  H = 16;

async function outputOf(svc: RunningService): Promise<Obj> {
  return ((await get(svc, '/status')).json as Obj).displays.find((d: Obj) => d.id === 'wled').output;
}

test(
  'service: a DDP receiver whose port is closed is ' + 'confirm=0 and a failure on /status until it answers again',
  async () => {
    const fb = await sink();
    const port = await closedUdpPort();
    const c = baseConfig();
    c.displays = {
      wled: {
        ...c.displays.main,
        displayWidth: String(W),
        displayHeight: String(H),
        displayPort: String(port),
        output: { driver: 'ddp' },
        confirmIp: '127.0.0.1',
        confirmPort: String(fb.port),
        layout: {
          l: { t: { coordinates: `0 0 ${W - 1} ${H - 1}`, type: 'text', fontSize: '12', backgroundColor: '0 0 90' } },
        },
      },
    };
    const sd = serviceDir(c);
    let svc: RunningService | undefined, rx: Receiver | undefined;
    /** Sends a command with inumber `n` and waits for its confirmation: the confirm value. */
    const command = async (n: string): Promise<string> => {
      assert.equal((await get(svc!, `/mlds?id=wled&layout=l&t=${n}&inumber=${n}`)).status, 200);
      await until(() => fb.got.some(({ url }) => url.endsWith(`&inumber=${n}`)), 5000, `the confirmation of ${n}`);
      return new URL(fb.got.find(({ url }) => url.endsWith(`&inumber=${n}`))!.url, 'http://x').searchParams.get(
        'confirm',
      )!;
    };
    try {
      svc = await start(sd, { feedback: { firstDelayMs: 5 } });
      let out: Obj = {};
      for (let i = 1; i <= 12 && !(out.reopens >= 1); i++) {
        assert.equal(await command(`refused${i}`), '0', `command ${i} did not reach the panel`);
        out = await outputOf(svc);
        assert.equal(out.lastResult, 'error', `command ${i}: /status agrees with the confirmation`);
        assert.ok(
          out.consecutiveFailures >= i,
          `command ${i}: ${out.consecutiveFailures} failures in a row (the black start picture was one)`,
        );
        assert.match(out.lastError, /ECONNREFUSED/);
      }
      assert.ok(out.reopens >= 1, 'failures in a row reopened the output');

      rx = await ddpReceiver(W * H * 3, port);
      let k = 0;
      await until(
        async () => {
          await command(`back${++k}`);
          return (await outputOf(svc!)).lastResult === 'ok';
        },
        30_000,
        'the output to recover',
      );
      assert.equal(await command('shown'), '1', 'confirmed once the receiver answers');
      out = await outputOf(svc);
      assert.deepEqual([out.open, out.lastResult, out.consecutiveFailures], [true, 'ok', 0]);
      assert.ok(rx.pictures.length >= 1, 'pictures reach the receiver');
    } finally {
      await svc?.close();
      sd.cleanup();
      fb.close();
      await rx?.close();
    }
  },
);
