// Clients that trickle their request line and headers (slowloris) cannot keep a keyed
// control message out: with every connection slot taken, a new connection is served and the
// one that has waited longest on its headers is closed; one network holds at most
// `limits.maxUnfinishedPerNetwork` such connections. Addresses across 127.0.0.0/8 all reach
// loopback on Linux, so each attacker is its own client, and 127.0.N.x its own /24.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { test } from 'node:test';
import { baseConfig, serviceDir, start, until } from '../helpers/service.js';
import { skipReason } from '../helpers/skip.js';

const KEY = 'control-key-1234';
// What the reported attack sent, one byte a second: it never completes before the headers' limit.
const TRICKLED = 'GET /load_config?x=1 HTTP/1.1\r\nHost: x\r\n';

/** The open-file limit of this process (/proc/self/limits), 0 when unreadable. */
function openFileLimit(): number {
  const line = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
  return line === null ? 0 : line[1] === 'unlimited' ? Infinity : Number(line[1]);
}

// Both ends of every connection live in this process: the attackers', the service's, some spare.
const fdsNeeded = 2 * 1000 + 500;
const fdSkip = openFileLimit() < fdsNeeded ? `the open-file limit is under ${fdsNeeded} (ulimit -n)` : undefined;

/**
 * What the kernel holds for the service's port: established connections on the service's
 * side, and connections waiting in the listen queue for the service to accept them.
 */
function kernelView(port: number): { established: number; queued: number } {
  const local = `0100007F:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  let established = 0;
  let queued = 0;
  for (const line of readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f[1] !== local) continue;
    if (f[3] === '01') established++;
    // A listening socket's rx_queue is its accept queue.
    if (f[3] === '0A') queued = parseInt(f[4].split(':')[1], 16);
  }
  return { established, queued };
}

interface Attacker {
  socket: Socket;
  opened: number;
  closedAt?: number;
}

/**
 * `perAddress` connections from each address that send TRICKLED one byte a second, as the
 * reported attack did; one that is closed opens again a second later (the attack repeats).
 * `history` keeps every connection made, in the order they were opened.
 */
function slowloris(port: number, addresses: string[], perAddress: number, reconnect = true) {
  const history: Attacker[] = [];
  const live = new Set<Attacker & { sent: number }>();
  let stopped = false;
  const open = (localAddress: string) => {
    if (stopped) return;
    const a = {
      socket: connect({ port, host: '127.0.0.1', localAddress }),
      opened: Date.now(),
      sent: 0,
    } as Attacker & { sent: number };
    history.push(a);
    live.add(a);
    a.socket.on('error', () => {
      /* a reset is how a dropped or closed attacker ends */
    });
    a.socket.on('close', () => {
      a.closedAt = Date.now();
      live.delete(a);
      if (reconnect) setTimeout(() => open(localAddress), 1000).unref();
    });
    return once(a.socket, 'connect').catch(() => undefined);
  };
  const tick = setInterval(() => {
    for (const a of live) if (a.socket.writable) a.socket.write(TRICKLED[a.sent++ % TRICKLED.length]);
  }, 1000);
  const opening = (async () => {
    // One at a time, so the service accepts them in this order; in rounds over the addresses,
    // so every address has connections among the oldest.
    for (let i = 0; i < perAddress; i++) for (const ip of addresses) await open(ip);
  })();
  return {
    history,
    opening,
    open: () => live.size,
    stop() {
      stopped = true;
      clearInterval(tick);
      for (const a of live) a.socket.destroy();
    },
  };
}

/**
 * One keyed /mlds on a connection of its own from `localAddress`: its status (0: reset or no answer in `ms`) and how
 * long it took.
 */
function keyedMlds(port: number, localAddress: string, n: number, ms: number): Promise<{ status: number; ms: number }> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const done = (status: number) => resolve({ status, ms: Math.round(performance.now() - t0) });
    const req = request(
      {
        host: '127.0.0.1',
        port,
        localAddress,
        agent: false,
        path: `/mlds?id=main&layout=l1&title=n${n}`,
        headers: { 'X-API-Key': KEY },
      },
      (res) => {
        res.resume();
        res.on('end', () => done(res.statusCode ?? 0));
        res.on('error', () => done(0));
      },
    );
    req.setTimeout(ms, () => req.destroy());
    req.on('error', () => done(0));
    req.end();
  });
}

test(
  'with every connection slot taken by 1,000 clients trickling their headers, ten keyed /mlds from another ' +
    'address are each answered 200 within 2 s',
  { skip: skipReason(fdSkip, 'hardware'), timeout: 120_000 },
  async (t) => {
    // 900 slots for 1,000 attackers from five addresses (five /24 networks, 200 each: under both
    // the per-client and the per-network share), so every slot is taken and more keep coming.
    const sd = serviceDir({ ...baseConfig(), security: { apiKey: KEY }, limits: { maxConnections: '900' } });
    const svc = await start(sd);
    const attack = slowloris(svc.port, ['127.0.1.2', '127.0.2.2', '127.0.3.2', '127.0.4.2', '127.0.5.2'], 200);
    try {
      await attack.opening;
      await until(
        () => {
          const k = kernelView(svc.port);
          return k.queued === 0 && k.established >= 900;
        },
        60_000,
        'every slot taken by the attackers',
      );
      const before = attack.history.filter((a) => a.closedAt === undefined);
      const answers: Array<{ status: number; ms: number }> = [];
      for (let i = 0; i < 10; i++) answers.push(await keyedMlds(svc.port, '127.0.0.1', i, 2000));
      const shown = answers.map((a) => `${a.status} in ${a.ms} ms`).join(', ');
      t.diagnostic(`keyed /mlds: ${shown}`);
      assert.ok(
        answers.every((a) => a.status === 200),
        `every keyed /mlds answered 200: ${shown}`,
      );
      // Room was made by closing the attackers that had waited longest: none closed while one
      // opened earlier stayed open (a margin for the reconnections racing the first openings).
      await until(
        () => before.filter((a) => a.closedAt !== undefined).length >= 10,
        5000,
        'the closings to reach the attackers',
      );
      const closed = before.filter((a) => a.closedAt !== undefined);
      const stayed = before.filter((a) => a.closedAt === undefined);
      const youngestClosed = Math.max(...closed.map((a) => a.opened));
      const oldestStayed = Math.min(...stayed.map((a) => a.opened));
      assert.ok(
        youngestClosed <= oldestStayed + 100,
        `an attacker opened ${youngestClosed - oldestStayed} ms after one that stayed was closed`,
      );
    } finally {
      attack.stop();
      await svc.close();
      sd.cleanup();
    }
  },
);

test(
  'one /24 network holds at most maxUnfinishedPerNetwork (256) connections waiting on their headers: beyond it ' +
    'its own longest waiting go, other networks keep theirs',
  { skip: skipReason(fdSkip, 'hardware'), timeout: 60_000 },
  async (t) => {
    // Long header limits: every closing here is the share's, none a timeout.
    const sd = serviceDir({
      ...baseConfig(),
      security: { apiKey: KEY },
      limits: { headersTimeoutMs: '60000', requestTimeoutMs: '60000' },
    });
    const svc = await start(sd);
    const other = slowloris(svc.port, ['127.0.1.2'], 20, false);
    await other.opening;
    const near = slowloris(svc.port, ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5', '127.0.0.6'], 60, false);
    try {
      await near.opening;
      const closedOf = (a: Attacker[]) => a.filter((x) => x.closedAt !== undefined);
      await until(() => closedOf(near.history).length >= 300 - 256, 10_000, '44 closings in 127.0.0.0/24');
      const order = (a: Attacker[]) => a.map((x) => near.history.indexOf(x)).sort((x, y) => x - y);
      assert.deepEqual(
        order(closedOf(near.history)),
        Array.from({ length: 44 }, (_, i) => i),
        'the 44 opened first were closed',
      );
      assert.equal(closedOf(other.history).length, 0, '127.0.1.0/24 keeps its 20');
      // A keyed client of the crowded network is served all the same; the next longest waiting one makes room.
      const answer = await keyedMlds(svc.port, '127.0.0.1', 0, 2000);
      t.diagnostic(`keyed /mlds from 127.0.0.1: ${answer.status} in ${answer.ms} ms`);
      assert.equal(answer.status, 200);
      await until(() => closedOf(near.history).length >= 45, 5000, 'one more closing');
      assert.equal(near.history[44].closedAt !== undefined, true, 'the 45th opened made room');
    } finally {
      near.stop();
      other.stop();
      await svc.close();
      sd.cleanup();
    }
  },
);

test('with the default limits a connection that sends nothing is answered 408 after about 5 s', async () => {
  const sd = serviceDir(baseConfig());
  const svc = await start(sd);
  try {
    const s = connect({ port: svc.port, host: '127.0.0.1' });
    let text = '';
    s.on('data', (d: Buffer) => {
      text += d.toString('latin1');
    });
    s.on('error', () => undefined);
    await once(s, 'connect');
    const t0 = Date.now();
    await once(s, 'close');
    const ms = Date.now() - t0;
    assert.match(text, /^HTTP\/1\.1 408 /);
    // Node looks every 0.5 s; a loaded machine may be late, never early.
    assert.ok(ms >= 4500 && ms < 9000, `closed after ${ms} ms`);
  } finally {
    await svc.close();
    sd.cleanup();
  }
});
