// A tiny authoritative DNS server on loopback UDP for tests: answers MX, A and AAAA from
// a zone map (a known name without records of the asked type: an empty NOERROR answer),
// NXDOMAIN for unknown names, SERVFAIL or silence on request. Every query is recorded.
// A silent zone holds its queries until `endSilence()`, so that a test decides when the
// resolver hears back instead of waiting out its timeout.
import { createSocket, type Socket } from 'node:dgram';

export interface Zone {
  mx?: { priority: number; exchange: string }[];
  a?: string[];
  aaaa?: string[];
  servfail?: boolean;
  /** Never answer (a timeout). */
  silent?: boolean;
}

export interface DnsServer {
  address: string;
  queries: { name: string; type: number }[];
  /** Answers every held query with SERVFAIL (resolved once sent), and every later one to a silent zone too. */
  endSilence(): Promise<void>;
  close(): Promise<void>;
}

function encodeName(name: string): Buffer {
  if (name === '' || name === '.') return Buffer.from([0]);
  const parts = name.replace(/\.$/, '').split('.');
  return Buffer.concat([
    ...parts.map((p) => Buffer.concat([Buffer.from([p.length]), Buffer.from(p)])),
    Buffer.from([0]),
  ]);
}

function readName(msg: Buffer, offset: number): { name: string; end: number } {
  const labels: string[] = [];
  let i = offset;
  while (msg[i]! !== 0) {
    const len = msg[i]!;
    labels.push(msg.subarray(i + 1, i + 1 + len).toString());
    i += len + 1;
  }
  return { name: labels.join('.').toLowerCase(), end: i + 1 };
}

function ipv6Bytes(address: string): Buffer {
  const [head = '', tail] = address.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const h = groups(head);
  const t = tail === undefined ? [] : groups(tail);
  const all = [...h, ...Array<number>(8 - h.length - t.length).fill(0), ...t];
  const out = Buffer.alloc(16);
  all.forEach((g, i) => out.writeUInt16BE(g, i * 2));
  return out;
}

export async function startDnsServer(zones: Record<string, Zone>): Promise<DnsServer> {
  const queries: DnsServer['queries'] = [];
  const socket: Socket = createSocket('udp4');
  const held: (() => Promise<void>)[] = [];
  let silence = true;
  const handle = (msg: Buffer, rinfo: { port: number; address: string }, failAll = false): Promise<void> => {
    const id = msg.readUInt16BE(0);
    const { name, end } = readName(msg, 12);
    const type = msg.readUInt16BE(end);
    const zone = zones[name];
    const question = msg.subarray(12, end + 4);
    let rcode = 0;
    const answers: Buffer[] = [];
    if (!zone)
      rcode = 3; // NXDOMAIN
    else if (zone.servfail || failAll) rcode = 2;
    else if (type === 15) {
      for (const mx of zone.mx ?? []) {
        const rdata = Buffer.concat([
          Buffer.from([mx.priority >> 8, mx.priority & 255]),
          encodeName(mx.exchange),
        ]);
        answers.push(record(15, rdata));
      }
    } else if (type === 1) {
      for (const a of zone.a ?? []) answers.push(record(1, Buffer.from(a.split('.').map(Number))));
    } else if (type === 28) {
      for (const a of zone.aaaa ?? []) answers.push(record(28, ipv6Bytes(a)));
    }
    const header = Buffer.alloc(12);
    header.writeUInt16BE(id, 0);
    header.writeUInt16BE(0x8400 | 0x0100 | rcode, 2); // response, authoritative, RD echoed
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(answers.length, 6);
    return new Promise<void>((resolve) =>
      socket.send(Buffer.concat([header, question, ...answers]), rinfo.port, rinfo.address, () => resolve()),
    );
  };
  socket.on('message', (msg, rinfo) => {
    const { name, end } = readName(msg, 12);
    queries.push({ name, type: msg.readUInt16BE(end) });
    if (zones[name]?.silent) {
      if (silence) held.push(() => handle(msg, rinfo, true));
      else void handle(msg, rinfo, true);
      return;
    }
    void handle(msg, rinfo);
  });
  function record(type: number, rdata: Buffer): Buffer {
    const head = Buffer.alloc(12);
    head.writeUInt16BE(0xc00c, 0); // pointer to the question's name
    head.writeUInt16BE(type, 2);
    head.writeUInt16BE(1, 4);
    head.writeUInt32BE(60, 6);
    head.writeUInt16BE(rdata.length, 10);
    return Buffer.concat([head, rdata]);
  }
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
  return {
    address: `127.0.0.1:${socket.address().port}`,
    queries,
    async endSilence() {
      silence = false;
      await Promise.all(held.splice(0).map((answer) => answer()));
    },
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
