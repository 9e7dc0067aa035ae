// Colorlight LED receiver cards on a dedicated Ethernet port (see colorlight-protocol.ts).
import { rowRuns } from '../frame.js';
import type { Frame, Output, ColorlightDetails } from './types.js';
import { nativeHelper, type PacketSocket } from '../native/helper.js';
import { linkState, linkWarnings, type LinkState } from './link-speed.js';
import { WireDamage } from './wire-damage.js';
import {
  REPEAT_FIRMWARE,
  REPLY_ETHERTYPE,
  brightnessByte,
  discoveryPacket,
  frameLayout,
  packetize,
  parseReply,
  type Packets,
  type ReceiverInfo,
} from './colorlight-protocol.js';

export interface ColorlightOptions {
  /** Skip discovery and assume this firmware major version (FPP's ColorlightFirmwareVersion). */
  firmwareVersion?: number;
  /** How long to wait for each receiver's discovery reply. */
  discoveryTimeoutMs?: number;
  /** How long a send may wait for room in the socket queue before the frame counts as failed. */
  sendTimeoutMs?: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** FPP asks for at most 32 cards on one port. */
const MAX_RECEIVERS = 32;
const LINK_CHECK_MS = 10_000;

export class ColorlightOutput implements Output {
  readonly driver = 'colorlight';
  private sock: PacketSocket | undefined;
  private receivers: ReceiverInfo[] = [];
  private firmwareMajor = 0;
  private level = 255;
  private brightness = 100;
  private packets: Packets | undefined;
  private packetsFor = '';
  private link: LinkState = {};
  private linkCheckedAt = 0;
  /** Only the changed rows between whole pictures (the cards keep rows they are not sent). */
  private readonly wire = new WireDamage();

  constructor(
    readonly ifname: string,
    private readonly opts: ColorlightOptions = {},
  ) {}

  async open(): Promise<void> {
    this.wire.forget();
    this.checkLink(true);
    const native = nativeHelper();
    this.sock = new native.PacketSocket(this.ifname);
    if (this.opts.firmwareVersion !== undefined) {
      this.firmwareMajor = this.opts.firmwareVersion;
      return;
    }
    this.receivers = await this.discover(native.PacketSocket);
    this.firmwareMajor = Math.max(0, ...this.receivers.map((r) => r.firmwareMajor));
  }

  async send(frame: Frame): Promise<void> {
    const sock = this.sock;
    if (!sock) throw Object.assign(new Error(`EBADF: colorlight on ${this.ifname} is not open`), { code: 'EBADF' });
    this.checkLink(false);
    const repeat = this.firmwareMajor >= REPEAT_FIRMWARE;
    const key = `${frame.width}x${frame.height}/${repeat}`;
    if (key !== this.packetsFor) {
      const { count, bytes } = frameLayout(frame.width, frame.height, repeat);
      this.packets = { buf: new Uint8Array(bytes), lengths: new Uint32Array(count) };
      this.packetsFor = key;
    }
    const rects = this.wire.take(frame);
    const n = packetize(
      frame.data,
      frame.width,
      frame.height,
      this.level,
      repeat,
      this.packets!,
      rects && rowRuns(rects, Infinity),
    );
    sock.sendBatch(this.packets!.buf, this.packets!.lengths.subarray(0, n), this.opts.sendTimeoutMs ?? 50);
    this.wire.sent();
  }

  /** The cards dim themselves: brightness travels in the brightness and sync packets. */
  async setBrightness(percent: number): Promise<void> {
    this.brightness = percent;
    this.level = brightnessByte(percent);
  }

  async close(): Promise<void> {
    this.sock?.close();
    this.sock = undefined;
  }

  describe(): ColorlightDetails {
    return {
      interface: this.ifname,
      link: this.link.state,
      speedMbps: this.link.speedMbps,
      receivers: this.receivers.map((r) => ({
        card: r.card,
        firmware: r.firmware,
        cabinet: `${r.width}x${r.height}`,
        uptimeMs: r.uptimeMs,
      })),
      firmwareMajor: this.firmwareMajor,
      repeatSyncAndBrightness: this.firmwareMajor >= REPEAT_FIRMWARE,
      brightness: this.brightness,
      warnings: [
        ...linkWarnings(this.ifname, this.link),
        ...(this.sock && this.opts.firmwareVersion === undefined && this.receivers.length === 0
          ? [`no Colorlight receiver answered discovery on ${this.ifname}`]
          : []),
      ],
    };
  }

  private checkLink(force: boolean): void {
    const now = Date.now();
    if (!force && now - this.linkCheckedAt < LINK_CHECK_MS) return;
    this.linkCheckedAt = now;
    this.link = linkState(this.ifname);
  }

  /** Asks card 0, 1, ... in turn until one stays silent, as FPP does (card 0 gets three tries). */
  private async discover(Sock: new (ifname: string, etherType?: number) => PacketSocket): Promise<ReceiverInfo[]> {
    const rx = new Sock(this.ifname, REPLY_ETHERTYPE);
    const found: ReceiverInfo[] = [];
    const wait = this.opts.discoveryTimeoutMs ?? 300;
    try {
      for (let index = 0, tries = 0; index < MAX_RECEIVERS; tries++) {
        const pkt = discoveryPacket(index);
        this.sock!.sendBatch(pkt, Uint32Array.of(pkt.length));
        const reply = await this.awaitReply(rx, wait);
        if (reply) {
          found.push(reply);
          index++;
          tries = -1;
          continue;
        }
        if (index > 0 || tries >= 2) break;
      }
    } finally {
      rx.close();
    }
    return found;
  }

  private async awaitReply(rx: PacketSocket, ms: number): Promise<ReceiverInfo | undefined> {
    const until = Date.now() + ms;
    while (Date.now() < until) {
      for (let b = rx.recv(); b; b = rx.recv()) {
        const info = parseReply(b);
        if (info) return info;
      }
      await sleep(5);
    }
    return undefined;
  }
}
