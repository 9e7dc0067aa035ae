// A real Mosquitto for the fleet tests (Debian's 2.0.11, installed by the Makefile's
// APT_TEST_PKGS): a generated configuration on a free loopback port, started, stopped,
// frozen with SIGSTOP; a CA and certificates made with openssl for the TLS cases; and a
// watching client that records every message with its retain flag and QoS.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect as tcpConnect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { selfSigned } from './certs.js';
import { freePort } from './ports.js';
import { until } from './wait.js';

/** Debian installs the broker in /usr/sbin, which an ordinary user's PATH (and a chroot's) may lack. */
const MOSQUITTO = existsSync('/usr/sbin/mosquitto') ? '/usr/sbin/mosquitto' : 'mosquitto';

export function hasMosquitto(): boolean {
  try {
    execFileSync(MOSQUITTO, ['-h'], { stdio: 'ignore' });
    return true;
  } catch (err) {
    return (err as { status?: number }).status !== undefined;
  }
}

export interface BrokerOptions {
  /** user -> password; anonymous logins are refused when given. */
  users?: Record<string, string>;
  /** Serve TLS with these files (see makeCertificates). */
  tls?: { ca: string; cert: string; key: string; requireCertificate?: boolean };
  port?: number;
  /** The text of a mosquitto acl_file (topic rights per user and pattern). */
  acl?: string;
  /** Further mosquitto.conf lines. */
  settings?: string[];
}

export class Broker {
  readonly dir = mkdtempSync(path.join(tmpdir(), 'mlds-broker-'));
  private child: ChildProcess | undefined;
  port = 0;
  log = '';

  constructor(private readonly opts: BrokerOptions = {}) {}

  /** The broker's process, while it runs (a bench reads its CPU and memory in /proc). */
  get pid(): number | undefined {
    const c = this.child;
    return c && c.exitCode === null && c.signalCode === null ? c.pid : undefined;
  }

  get url(): string {
    return `${this.opts.tls ? 'mqtts' : 'mqtt'}://${this.opts.tls ? 'localhost' : '127.0.0.1'}:${this.port}`;
  }

  async start(): Promise<this> {
    this.port ||= this.opts.port ?? (await freePort());
    const lines = [
      `listener ${this.port} 127.0.0.1`,
      'persistence false',
      'log_dest stderr',
      'log_type error',
      'log_type warning',
      'log_type notice',
      'set_tcp_nodelay true',
    ];
    // Started as root, mosquitto reads its files as the `mosquitto` user: they live in a folder it may read.
    chmodSync(this.dir, 0o755);
    const readable = (from: string, name: string) => {
      const to = path.join(this.dir, name);
      copyFileSync(from, to);
      chmodSync(to, 0o644);
      return to;
    };
    if (this.opts.users) {
      const file = path.join(this.dir, 'passwd');
      writeFileSync(file, '');
      for (const [u, p] of Object.entries(this.opts.users)) execFileSync('mosquitto_passwd', ['-b', file, u, p]);
      chmodSync(file, 0o644);
      lines.push('allow_anonymous false', `password_file ${file}`);
    } else lines.push('allow_anonymous true');
    if (this.opts.acl !== undefined) {
      const file = path.join(this.dir, 'acl');
      writeFileSync(file, this.opts.acl);
      chmodSync(file, 0o644);
      lines.push(`acl_file ${file}`);
    }
    const t = this.opts.tls;
    if (t)
      lines.push(
        `cafile ${readable(t.ca, 'ca.pem')}`,
        `certfile ${readable(t.cert, 'server.pem')}`,
        `keyfile ${readable(t.key, 'server.key')}`,
        `require_certificate ${t.requireCertificate ? 'true' : 'false'}`,
      );
    if (t?.requireCertificate) lines.push('use_identity_as_username true');
    lines.push(...(this.opts.settings ?? []));
    const conf = path.join(this.dir, 'mosquitto.conf');
    writeFileSync(conf, lines.join('\n') + '\n');
    const child = spawn(MOSQUITTO, ['-c', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr!.on('data', (d: Buffer) => {
      this.log += d.toString();
    });
    this.child = child;
    // No mosquitto, or one that exits at once (a bad configuration), fails now with its reason, not after the wait.
    const died = new Promise<never>((_, reject) => {
      child.once('error', (e) => reject(new Error(`mosquitto could not start: ${e.message}`)));
      child.once('exit', (code) => reject(new Error(`mosquitto exited with ${code}: ${this.log.trim()}`)));
    });
    died.catch(() => undefined);
    await Promise.race([waitForPort(this.port, 5000), died]);
    return this;
  }

  async stop(): Promise<void> {
    const c = this.child;
    this.child = undefined;
    if (!c || c.exitCode !== null) return;
    c.kill('SIGCONT');
    const gone = new Promise((r) => c.once('exit', r));
    c.kill('SIGTERM');
    await gone;
  }

  freeze(): void {
    this.child?.kill('SIGSTOP');
  }
  thaw(): void {
    this.child?.kill('SIGCONT');
  }

  async cleanup(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

async function waitForPort(port: number, ms: number): Promise<void> {
  const listening = () =>
    new Promise<boolean>((resolve) => {
      const s = tcpConnect(port, '127.0.0.1', () => {
        s.destroy();
        resolve(true);
      });
      s.on('error', () => resolve(false));
    });
  await until(listening, ms, `mosquitto to listen on ${port}`, 50);
}

/**
 * A TCP forwarder from `from` to `to` on loopback, listening only once called: a client pointed
 * at `from` reaches the broker when the test says so, not when its own retry happens to fire.
 */
export async function openGate(from: number, to: number): Promise<{ close: () => Promise<void> }> {
  const sockets = new Set<import('node:net').Socket>();
  const server = createServer((a) => {
    const b = tcpConnect(to, '127.0.0.1');
    sockets.add(a).add(b);
    a.pipe(b).pipe(a);
    const end = () => {
      a.destroy();
      b.destroy();
      sockets.delete(a);
      sockets.delete(b);
    };
    a.on('error', end).on('close', end);
    b.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(from, '127.0.0.1', resolve);
  });
  return {
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

export interface Seen {
  topic: string;
  payload: string;
  retain: boolean;
  qos: number;
  at: number;
}

/** A client that records every message on `topics`, with the flags as published (MQTT 5, retain-as-published). */
export class Watcher {
  readonly seen: Seen[] = [];
  private constructor(readonly client: MqttClient) {}

  static async open(url: string, topics: string[], opts: mqtt.IClientOptions = {}): Promise<Watcher> {
    const client = await mqtt.connectAsync(url, { protocolVersion: 5, reconnectPeriod: 0, clean: true, ...opts });
    (client.stream as { setNoDelay?: (on: boolean) => void }).setNoDelay?.(true);
    const w = new Watcher(client);
    client.on('message', (topic, payload, packet) =>
      w.seen.push({ topic, payload: payload.toString(), retain: packet.retain, qos: packet.qos, at: Date.now() }),
    );
    await client.subscribeAsync(topics, { qos: 2, rap: true });
    return w;
  }

  on(topic: string): Seen[] {
    return this.seen.filter((s) => s.topic === topic);
  }

  async publish(topic: string, payload: string | Buffer, opts: mqtt.IClientPublishOptions = {}): Promise<void> {
    await this.client.publishAsync(topic, payload, { qos: 1, ...opts });
  }

  async close(): Promise<void> {
    await this.client.endAsync(true).catch(() => {});
  }
}

/** A CA, a server certificate for `localhost`, one for another name, and a client certificate, made with openssl. */
export function makeCertificates(
  dir: string,
): Record<'ca' | 'caKey' | 'server' | 'serverKey' | 'wrongName' | 'wrongNameKey' | 'client' | 'clientKey', string> {
  const f = (n: string) => path.join(dir, n);
  const ssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'ignore' });
  selfSigned(f('ca.pem'), f('ca.key'), '/CN=mlds test CA');
  const leaf = (name: string, cn: string, ext: string) => {
    ssl(
      'req',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      f(`${name}.key`),
      '-out',
      f(`${name}.csr`),
      '-subj',
      `/CN=${cn}`,
    );
    writeFileSync(f(`${name}.ext`), ext);
    ssl(
      'x509',
      '-req',
      '-in',
      f(`${name}.csr`),
      '-CA',
      f('ca.pem'),
      '-CAkey',
      f('ca.key'),
      '-CAcreateserial',
      '-out',
      f(`${name}.pem`),
      '-days',
      '2',
      '-extfile',
      f(`${name}.ext`),
    );
  };
  leaf('server', 'localhost', 'subjectAltName=DNS:localhost\nextendedKeyUsage=serverAuth\n');
  leaf('wrong', 'broker.example', 'subjectAltName=DNS:broker.example\nextendedKeyUsage=serverAuth\n');
  leaf('client', 'unit-tls', 'extendedKeyUsage=clientAuth\n');
  return {
    ca: f('ca.pem'),
    caKey: f('ca.key'),
    server: f('server.pem'),
    serverKey: f('server.key'),
    wrongName: f('wrong.pem'),
    wrongNameKey: f('wrong.key'),
    client: f('client.pem'),
    clientKey: f('client.key'),
  };
}
