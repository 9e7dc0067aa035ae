// A DNS server for public-private.test.ts, run inside its network namespace on 127.0.0.1:53:
// argv[2] maps a name to the IPv4 addresses its successive A queries get (the last one repeats),
// which is how a rebinding name behaves: public when first asked, loopback afterwards. Each
// query is written to stdout as `<name> <type>`; AAAA gets an empty answer.
//
// A message (RFC 1035, 4.1): a 12-byte header (id, flags, QDCOUNT, ANCOUNT, NSCOUNT, ARCOUNT),
// the question (the name as length-prefixed labels ending in 0, QTYPE, QCLASS), then answers:
// the name (here a pointer to the question's, 0xC00C), TYPE, CLASS, TTL (4 bytes), RDLENGTH and
// RDATA (4 bytes for A).
import dgram from 'node:dgram';

const answers = JSON.parse(process.argv[2]) as Record<string, string[]>;
const asked = new Map<string, number>();
const socket = dgram.createSocket('udp4');

socket.on('message', (msg, peer) => {
  if (msg.length < 12) return;
  const labels: string[] = [];
  let i = 12;
  while (i < msg.length && msg[i] !== 0) {
    labels.push(msg.subarray(i + 1, i + 1 + msg[i]).toString('latin1'));
    i += msg[i] + 1;
  }
  const questionEnd = i + 5;
  if (questionEnd > msg.length) return;
  const type = msg.readUInt16BE(i + 1);
  const name = labels.join('.').toLowerCase();
  process.stdout.write(`${name} ${type === 1 ? 'A' : type === 28 ? 'AAAA' : type}\n`);
  const list = answers[name];
  const header = Buffer.alloc(12);
  msg.copy(header, 0, 0, 2);
  // QR, AA, the query's RD, RA; NXDOMAIN for a name this server does not know.
  header.writeUInt16BE(0x8480 | (msg.readUInt16BE(2) & 0x0100) | (list ? 0 : 3), 2);
  header.writeUInt16BE(1, 4);
  const parts = [header, msg.subarray(12, questionEnd)];
  if (list && type === 1) {
    const n = asked.get(name) ?? 0;
    asked.set(name, n + 1);
    const address = list[Math.min(n, list.length - 1)];
    const rr = Buffer.alloc(16);
    rr.writeUInt16BE(0xc00c, 0);
    rr.writeUInt16BE(1, 2);
    rr.writeUInt16BE(1, 4);
    rr.writeUInt32BE(0, 6);
    rr.writeUInt16BE(4, 10);
    address.split('.').forEach((b, k) => rr.writeUInt8(Number(b), 12 + k));
    header.writeUInt16BE(1, 6);
    parts.push(rr);
  }
  socket.send(Buffer.concat(parts), peer.port, peer.address);
});
socket.bind(53, '127.0.0.1', () => process.stdout.write('ready\n'));
