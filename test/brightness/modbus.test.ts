// Modbus light sensors against a real slave (Debian's python3-pymodbus 3.0, the fixture
// modbus-slave.py): RTU over a socat pty, unplugged and plugged back in, and Modbus/TCP against
// the same slave's datastore on loopback, in the running service.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import type { RunningService } from '../../src/main.js';
import { baseConfig, get, serviceDir, start, until } from '../helpers/service.js';
import { ptyPair, ptyUnavailable } from './pty.js';
import { skipReason } from '../helpers/skip.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const PYTHON = '/usr/bin/python3';
const SLAVE = fileURLToPath(new URL('./fixtures/modbus-slave.py', import.meta.url));

function slaveUnavailable(): string | undefined {
  const r = spawnSync(PYTHON, ['-c', 'import pymodbus.server.async_io, serial_asyncio'], { encoding: 'utf8' });
  if (r.error || r.status !== 0)
    return skipReason("needs Debian's python3-pymodbus (/usr/bin/python3; the Makefile installs it)");
  return ptyUnavailable();
}

interface Slave {
  proc: ChildProcess;
  tcpPort: number;
  set(register: number, value: number): Promise<void>;
  stop(): Promise<void>;
}

async function startSlave(serial: string): Promise<Slave> {
  const proc = spawn(PYTHON, [SLAVE, '--serial', serial, '--tcp-port', '0', '--unit', '1'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: proc.stdout! });
  const waiting: Array<(line: string) => void> = [];
  lines.on('line', (l) => waiting.shift()?.(l));
  const next = () =>
    new Promise<string>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('the Modbus slave did not answer')), 10_000);
      waiting.push((l) => {
        clearTimeout(t);
        resolve(l);
      });
    });
  const ready = await Promise.race([
    next(),
    new Promise<string>((_, reject) =>
      proc.once('exit', (code) => reject(new Error(`modbus slave exited with ${code}`))),
    ),
  ]);
  const m = /^ready tcp=(\d+)$/.exec(ready);
  if (!m) throw new Error(`unexpected from the slave: ${ready}`);
  return {
    proc,
    tcpPort: Number(m[1]),
    async set(register, value) {
      const answered = next();
      proc.stdin!.write(`set ${register} ${value}\n`);
      assert.equal(await answered, 'ok');
    },
    async stop() {
      if (proc.exitCode !== null) return;
      const exited = new Promise((r) => proc.once('exit', r));
      proc.stdin!.end('quit\n');
      const kill = setTimeout(() => proc.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(kill);
    },
  };
}

test(
  'Modbus RTU on a pty (unplugged and back) and Modbus TCP on loopback, one slave',
  { skip: slaveUnavailable() },
  async () => {
    const pty = await ptyPair();
    const slave = await startSlave(pty.feed);
    await slave.set(0, 500);
    const curve = [
      [0, 0],
      [1000, 100],
    ];
    const c = baseConfig();
    const base = c.displays.main;
    c.displays = {
      rtu: {
        ...base,
        displayPort: '9001',
        sensor: {
          protocol: 'modbus-rtu',
          path: pty.device,
          baudRate: 9600,
          unitId: 1,
          register: 0,
          pollMs: 200,
          curve,
        },
      },
      tcp: {
        ...base,
        displayPort: '9002',
        sensor: {
          protocol: 'modbus-tcp',
          host: '127.0.0.1',
          port: slave.tcpPort,
          unitId: 1,
          register: 0,
          pollMs: 200,
          curve,
        },
      },
    };
    const sd = serviceDir(c);
    let svc: RunningService | undefined;
    try {
      svc = await start(sd);
      const status = async () => {
        const st = (await get(svc!, '/status')).json as Obj;
        const b = st.components.brightness;
        return {
          out: Object.fromEntries(st.displays.map((d: Obj) => [d.id, d.output.details.brightness])),
          units: Object.fromEntries(b.units.map((u: Obj) => [u.id, u])),
          sensor: (id: string) => b.sensors.find((s: Obj) => s.name === `displays/${id}/sensor`),
        };
      };
      await until(
        async () => {
          const s = await status();
          return s.out.rtu === 50 && s.out.tcp === 50;
        },
        10_000,
        'both sensors read 500 lx',
      );
      let s = await status();
      assert.equal(s.units.rtu.mode, 'sensor');
      assert.match(s.units.rtu.source, new RegExp(`^sensor ${pty.device} unit 1 register 0: 500 lx$`));
      assert.match(
        s.units.tcp.source,
        new RegExp(`^sensor modbus-tcp 127.0.0.1:${slave.tcpPort} unit 1 register 0: 500 lx$`),
      );

      await slave.set(0, 900);
      await until(
        async () => {
          const x = await status();
          return x.out.rtu === 90 && x.out.tcp === 90;
        },
        10_000,
        'both follow the register',
      );

      // The RTU adapter unplugged: the last value holds with a warning; TCP goes on.
      await pty.unplug();
      await until(
        async () => {
          s = await status();
          return s.sensor('rtu').connected === false;
        },
        10_000,
        'the unplug noticed',
      );
      assert.ok(s.sensor('rtu').warning);
      await slave.set(0, 200);
      await until(async () => (await status()).out.tcp === 20, 10_000, 'TCP follows');
      s = await status();
      assert.equal(s.out.rtu, 90, 'RTU holds its last value');
      assert.equal(s.units.rtu.mode, 'sensor');

      // Plugged back in: the slave reopens its end, the service its own, and RTU follows again.
      await pty.plug();
      await until(async () => (await status()).out.rtu === 20, 20_000, 'RTU back');
      s = await status();
      assert.equal(s.sensor('rtu').connected, true);
      assert.ok(s.sensor('rtu').reconnects >= 1);

      // The TCP slave gone: that sensor warns and holds too.
      await slave.stop();
      await until(
        async () => {
          s = await status();
          return s.sensor('tcp').connected === false;
        },
        10_000,
        'the TCP loss noticed',
      );
      assert.match(s.sensor('tcp').warning, /disconnected|cannot open|no good reading/);
      assert.equal(s.out.tcp, 20);
    } finally {
      await svc?.close();
      sd.cleanup();
      await slave.stop();
      await pty.close();
    }
  },
);
