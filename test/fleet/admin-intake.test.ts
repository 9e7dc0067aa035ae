// The admin commands' own lane: one at a time in arrival order, ADMIN_WAITING waiting and
// ADMIN_PER_SECOND taken a second; every one beyond is refused at once with why. A refusal
// echoes the request id and a known command name, nothing else of the payload.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ADMIN_PER_SECOND, ADMIN_WAITING, AdminIntake, adminIds } from '../../src/fleet/admin-intake.js';
import { MAX_PAYLOAD } from '../../src/fleet/payload.js';
import { until } from '../helpers/service.js';

test('a refusal echoes the request id and a known command, nothing else of the payload', () => {
  assert.deepEqual(adminIds(Buffer.from('{"cmd":"screenshot","req":"op-1","id":"main"}')), {
    req: 'op-1',
    cmd: 'screenshot',
  });
  assert.deepEqual(adminIds(Buffer.from('{"cmd":"blank","req":17}')), { req: '17', cmd: 'blank' });
  assert.deepEqual(adminIds(Buffer.from(' identify ')), { req: null, cmd: 'identify' });
  assert.deepEqual(adminIds(Buffer.from('adminKey=secret-key-123')), { req: null, cmd: null });
  assert.deepEqual(adminIds(Buffer.from('{"cmd":"secret-key-123","req":"r"}')), { req: 'r', cmd: null });
  assert.deepEqual(adminIds(Buffer.from('{"cmd":"blank",adminKey:secret}')), { req: null, cmd: null });
  assert.deepEqual(adminIds(Buffer.from('{"cmd":"toString"}')), { req: null, cmd: null });
  assert.deepEqual(adminIds(Buffer.from(`{"cmd":"status","req":"${'r'.repeat(100)}"}`)).req, 'r'.repeat(64));
  assert.deepEqual(adminIds(Buffer.alloc(MAX_PAYLOAD + 1, 0x20)), { req: null, cmd: null });
});

test(
  `one runs, ${ADMIN_WAITING} wait, and beyond them or ${ADMIN_PER_SECOND} a second each is refused at once ` +
    `with why; the rest run in order`,
  async () => {
    // Early in a second, so the burst falls in one window of the rate limit.
    await until(() => Date.now() % 1000 < 500, 2000, 'the start of a second', 5);
    const ran: string[] = [];
    const release: Array<() => void> = [];
    const refused: Array<[string, string, string]> = [];
    const lane = new AdminIntake(
      async (_topic, p) => {
        ran.push(p.toString());
        await new Promise<void>((r) => release.push(r));
      },
      (topic, p, reason) => refused.push([topic, p.toString(), reason]),
    );
    const n = ADMIN_PER_SECOND + 5;
    for (let i = 0; i < n; i++) lane.offer('mlds/u1/admin', Buffer.from(`c${i}`));
    assert.deepEqual(ran, ['c0']);
    assert.equal(lane.waiting, ADMIN_WAITING);
    const queue = Array.from({ length: ADMIN_PER_SECOND - 1 - ADMIN_WAITING }, (_, k) => [
      'mlds/u1/admin',
      `c${ADMIN_WAITING + 1 + k}`,
      'queue',
    ]);
    const rate = Array.from({ length: 5 }, (_, k) => ['mlds/u1/admin', `c${ADMIN_PER_SECOND + k}`, 'rate']);
    assert.deepEqual(refused, [...queue, ...rate]);
    assert.deepEqual([lane.run, lane.shed], [1, n - 1 - ADMIN_WAITING]);
    for (let i = 1; i <= ADMIN_WAITING; i++) {
      release.shift()!();
      await until(() => ran.length === i + 1, 2000, `c${i} to run`);
    }
    release.shift()!();
    assert.deepEqual(
      ran,
      Array.from({ length: ADMIN_WAITING + 1 }, (_, i) => `c${i}`),
    );
    await until(() => lane.waiting === 0 && lane.run === ADMIN_WAITING + 1, 2000, 'the lane empty');
  },
);
