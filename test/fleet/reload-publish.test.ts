// A load_config whose `mqtt` part differs connects anew while the command's own result waits to
// be sent: what the unit publishes on that connection (Home Assistant's discovery, the light's
// state, the retained status) goes out too. Dropped, the status stayed at the old generation for
// a whole `statusIntervalSeconds` and Home Assistant kept the old name.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { Broker, hasMosquitto, Watcher } from '../helpers/broker.js';
import { baseConfig, serviceDir, start, until } from '../helpers/service.js';
import { archiveServer, entriesOf, makeZip } from '../helpers/zips.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const skip = !hasMosquitto() && process.env.CI !== 'true' ? 'mosquitto is not installed (make test-deps)' : false;

test(
  'load_config with another mqtt part: the result, the status at the new generation and the discovery with the ' +
    'new name all arrive at once',
  { skip },
  async () => {
    const broker = await new Broker().start();
    const served = new Map<string, Buffer>();
    const files = await archiveServer(served);
    const config = (name: string, keepalive: number): Obj => {
      const c = baseConfig();
      c.displays.main.displayName = name;
      // The status interval is far beyond the test's deadlines: only the connection's own publish can pass.
      c.mqtt = { url: broker.url, unit: 'r1', keepalive, homeAssistant: true, statusIntervalSeconds: 3600 };
      return c;
    };
    const sd = serviceDir(config('Old name', 5));
    const w = await Watcher.open(broker.url, ['mlds/r1/#', 'homeassistant/#']);
    const svc = await start(sd);
    try {
      const statuses = () => w.on('mlds/r1/status').map((s) => JSON.parse(s.payload) as Obj);
      const names = () =>
        w.on('homeassistant/light/r1/config').map((s) => (JSON.parse(s.payload) as Obj).name as string);
      await until(() => statuses().length > 0 && names().length > 0, 10_000, 'the first status and discovery');
      assert.equal(names().at(-1), 'Old name');
      const generation = statuses().at(-1)!.generation as number;

      const dir = mkdtempSync(path.join(tmpdir(), 'mlds-archive-'));
      cpSync(path.join(sd.dir, 'images'), path.join(dir, 'images'), { recursive: true });
      writeFileSync(path.join(dir, 'config.json'), JSON.stringify(config('New name', 7)));
      const zip = readFileSync(makeZip(`${dir}.zip`, entriesOf(dir)));
      rmSync(dir, { recursive: true, force: true });
      rmSync(`${dir}.zip`, { force: true });
      served.set('next.zip', zip);
      await w.publish(
        'mlds/r1/admin',
        JSON.stringify({
          req: 'n1',
          cmd: 'load_config',
          url: `${files.base}/next.zip`,
          sha256: createHash('sha256').update(zip).digest('hex'),
        }),
      );

      const result = () =>
        w
          .on('mlds/r1/admin/result')
          .map((s) => JSON.parse(s.payload) as Obj)
          .find((r) => r.req === 'n1' && r.ok !== undefined);
      await until(() => result() !== undefined, 15_000, 'the load_config result');
      assert.equal(result()!.ok, true, JSON.stringify(result()));
      assert.equal(result()!.generation, generation + 1);
      await until(
        () => statuses().at(-1)!.generation === generation + 1 && names().at(-1) === 'New name',
        10_000,
        () =>
          `the new generation on the status topic and the new name in discovery: ` +
          `${statuses().at(-1)!.generation}, ${names().at(-1)}`,
      );
      assert.equal(w.on('mlds/r1/status').at(-1)!.retain, true);
      assert.ok(w.on('mlds/r1/light/main/state').length >= 2, "the light's state on both connections");
    } finally {
      await svc.close();
      await w.close();
      files.close();
      await broker.cleanup();
      sd.cleanup();
    }
  },
);
