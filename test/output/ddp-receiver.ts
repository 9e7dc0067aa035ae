// A DDP receiver on loopback for the tests: keeps every packet and, on PUSH, a copy of the
// picture the packets' offsets assembled. Like a real receiver it keeps its buffer between
// pictures: a partial picture changes only the bytes it carries.
import { createSocket, type Socket } from 'node:dgram';

export interface Receiver {
  sock: Socket;
  port: number;
  packets: Buffer[];
  pictures: Buffer[];
  close(): Promise<void>;
}

export async function ddpReceiver(size: number, port = 0): Promise<Receiver> {
  const sock = createSocket('udp4');
  const buf = Buffer.alloc(size);
  const r: Receiver = {
    sock,
    port: 0,
    packets: [],
    pictures: [],
    close: () => new Promise<void>((res) => sock.close(() => res())),
  };
  sock.on('message', (m) => {
    r.packets.push(m);
    const offset = m.readUInt32BE(4),
      len = m.readUInt16BE(8);
    m.copy(buf, offset, 10, 10 + len);
    if (m[0] & 0x01) r.pictures.push(Buffer.from(buf));
  });
  await new Promise<void>((res) => sock.bind(port, '127.0.0.1', () => res()));
  r.port = sock.address().port;
  return r;
}
