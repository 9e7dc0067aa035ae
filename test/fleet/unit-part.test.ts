// Each unit's own part (unit.json in its state folder, a merge patch over config.json) survives
// a configuration pushed to the whole fleet: two real units get the same archive over HTTP and
// each keeps its name on the broker, its groups and its output address. The digest is equal
// where the effective configurations are, and the same after a restart.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { Broker, hasMosquitto, Watcher } from '../helpers/broker.js';
import { baseConfig, get, REPO, serviceDir, start, until, type ServiceDir } from '../helpers/service.js';
import { archiveServer, makeZip } from '../helpers/zips.js';
import type { RunningService } from '../../src/main.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const skip = !hasMosquitto() && process.env.CI !== 'true' ? 'mosquitto is not installed (make test-deps)' : false;

/** The fleet's configuration: every unit would be `fleet-base` in group `all` on port 9001 without its own part. */
function fleetConfig(broker: string, title: string): Obj {
  const c = baseConfig();
  c.displays.main.layout.l1.title.backgroundColor = title;
  c.mqtt = { url: broker, unit: 'fleet-base', groups: ['all'], statusIntervalSeconds: 3600 };
  return c;
}

function unitDir(config: Obj, unit: Obj | string): ServiceDir {
  const sd = serviceDir(config);
  mkdirSync(sd.stateDir, { recursive: true });
  writeFileSync(path.join(sd.stateDir, 'unit.json'), typeof unit === 'string' ? unit : JSON.stringify(unit, null, 2));
  return sd;
}

const configOf = async (svc: RunningService): Promise<Obj> => (await get(svc, '/status')).json.config as Obj;

test(
  "a pushed archive keeps each unit's own part: name, groups and output port; digests equal where the effective " +
    'configurations are, and stable across a restart',
  { skip },
  async () => {
    const broker = await new Broker().start();
    const served = new Map<string, Buffer>();
    const files = await archiveServer(served);
    const w = await Watcher.open(broker.url, ['mlds/#']);
    const partA = { mqtt: { unit: 'unit-a', groups: ['north', 'all'] }, displays: { main: { displayPort: '9101' } } };
    const partB = { mqtt: { unit: 'unit-b', groups: ['south'] }, displays: { main: { displayPort: '9102' } } };
    const dirs = [
      unitDir(fleetConfig(broker.url, '0 0 255'), partA),
      unitDir(fleetConfig(broker.url, '0 0 255'), partB),
    ];
    // A third unit, later, with unit-a's part written in another order and spacing.
    const partA2 = '{"displays":{"main":{"displayPort":"9101"}},\n "mqtt":{"groups":["north","all"],"unit":"unit-a"}}';
    dirs.push(unitDir(fleetConfig(broker.url, '255 0 0'), partA2));
    const running: RunningService[] = [];
    try {
      // The fleet's archive: another colour, and the fleet's own identity that must not win.
      const images = path.join(REPO, 'examples/images');
      const entries = [
        { name: 'config.json', text: JSON.stringify(fleetConfig(broker.url, '0 200 0')) },
        ...readdirSync(images).map((n) => ({
          name: `images/${n}`,
          base64: readFileSync(path.join(images, n)).toString('base64'),
        })),
      ];
      served.set(
        'fleet.zip',
        readFileSync(makeZip(path.join(dirs[0]!.dir, '..', `${path.basename(dirs[0]!.dir)}-fleet.zip`), entries)),
      );

      const a = await start(dirs[0]!);
      running.push(a);
      const b = await start(dirs[1]!);
      running.push(b);
      const baseBefore = (await configOf(a)).parts.base.digest as string;
      for (const svc of [a, b]) {
        const r = await get(svc, `/load_config?url=${encodeURIComponent(`${files.base}/fleet.zip`)}`);
        assert.equal(r.status, 200, r.text);
      }
      for (const [svc, name, groups, port] of [
        [a, 'unit-a', ['north', 'all'], 9101],
        [b, 'unit-b', ['south'], 9102],
      ] as const) {
        assert.equal(svc.runtime.config.displays[0]!.displayIp, '127.0.0.1');
        assert.equal(svc.runtime.config.displays[0]!.displayPort, port, `${name} keeps its output port`);
        assert.equal(svc.runtime.config.mqtt?.unit, name);
        assert.deepEqual(svc.runtime.config.mqtt?.groups, groups);
        assert.notEqual((await configOf(svc)).parts.base.digest, baseBefore, 'the pushed configuration runs');
        await until(() => w.on(`mlds/${name}/status`).length > 0, 10_000, `${name}'s retained status`);
      }
      assert.equal(
        w.seen.filter((s) => s.topic.startsWith('mlds/fleet-base/')).length,
        0,
        "no unit took the fleet's name",
      );
      const ca = await configOf(a),
        cb = await configOf(b);
      assert.match(ca.digest, /^[0-9a-f]{64}$/);
      assert.equal(ca.parts.base.digest, cb.parts.base.digest, 'the same fleet part');
      assert.notEqual(ca.parts.unit.digest, cb.parts.unit.digest);
      assert.equal(ca.parts.unit.file, path.join(dirs[0]!.stateDir, 'unit.json'));
      assert.notEqual(ca.digest, cb.digest, 'different effective configurations');
      assert.deepEqual(
        JSON.parse(readFileSync(path.join(dirs[0]!.stateDir, 'unit.json'), 'utf8')),
        partA,
        'the push left unit.json as it was',
      );

      // A restart: the same digest.
      await a.close();
      running.splice(running.indexOf(a), 1);
      const a2 = await start(dirs[0]!);
      running.push(a2);
      assert.equal((await configOf(a2)).digest, ca.digest, 'stable across a restart');
      await a2.close();
      running.splice(running.indexOf(a2), 1);

      // Another unit in another folder with the same part (written differently) and the same push: the same digest.
      const c = await start(dirs[2]!);
      running.push(c);
      assert.notEqual((await configOf(c)).digest, ca.digest, 'before the push it runs another configuration');
      assert.equal((await get(c, `/load_config?url=${encodeURIComponent(`${files.base}/fleet.zip`)}`)).status, 200);
      assert.equal(
        (await configOf(c)).digest,
        ca.digest,
        'the same effective configuration and files, the same digest',
      );
    } finally {
      for (const svc of running) await svc.close();
      await w.close();
      files.close();
      await broker.stop();
      for (const d of dirs) d.cleanup();
    }
  },
);
