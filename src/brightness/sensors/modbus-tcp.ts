// protocol "modbus-tcp" (the specification's advanced automatic mode): one holding register
// (function 0x03) read from a Modbus/TCP device with modbus-serial; the register holds lux.
import type { LuxLink } from './lux-link.js';

const CONNECT_TIMEOUT_MS = 5000;

// CommonJS under NodeNext: the default import is module.exports, whose `default` is the class again.
const loadModbus = async () => (await import('modbus-serial')).default.default;
type ModbusClient = InstanceType<Awaited<ReturnType<typeof loadModbus>>>;

export class TcpLink implements LuxLink {
  private client: ModbusClient | undefined;
  private lostFn: ((err: Error) => void) | undefined;
  readonly where: string;

  constructor(
    private readonly host: string,
    private readonly port: number,
    private readonly unit: number,
    private readonly register: number,
  ) {
    this.where = `modbus-tcp ${host}:${port} unit ${unit} register ${register}`;
  }

  onLost(fn: (err: Error) => void): void {
    this.lostFn = fn;
  }

  async open(): Promise<void> {
    await this.close();
    const Modbus = await loadModbus();
    const client = new Modbus();
    client.on('error', () => undefined); // reported through the promise of the call that failed
    await client.connectTCP(this.host, { port: this.port, timeout: CONNECT_TIMEOUT_MS });
    client.setID(this.unit);
    client.on('close', () => {
      if (this.client !== client) return;
      this.client = undefined;
      this.lostFn?.(new Error(`connection to ${this.host}:${this.port} closed`));
    });
    this.client = client;
  }

  async read(timeoutMs: number): Promise<number> {
    const client = this.client;
    if (!client) throw new Error(`${this.host}:${this.port} is not connected`);
    client.setTimeout(timeoutMs);
    const r = await client.readHoldingRegisters(this.register, 1);
    return r.data[0];
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (!client) return;
    await new Promise<void>((resolve) => {
      try {
        client.close(() => resolve());
      } catch {
        resolve();
      }
    });
  }
}
