import { createSocket, type Socket } from 'node:dgram';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { jsonReplies, noContent, readBody } from '../http-replies.ts';
import { closeServer, listen } from '../http-server.ts';
import { encodeResponse, parseQuery, recordTypes, TYPES, type Answer, type RecordType } from './wire.ts';

/**
 * The local DNS (issue 32 point 3, decision 0055): a small authoritative DNS server on 127.0.0.1 (UDP) answering A,
 * CNAME and TXT questions from the records a test or the developer sets, so the custom domains' verification reads
 * real DNS answers through node:dns (the functions' DNS_RESOLVER names it). Names it holds nothing for are NXDOMAIN
 * (names with another type of record: an empty NOERROR answer); a CNAME is answered for any question at its name, as
 * DNS does.
 * The control endpoint (`DnsControlUrl` in outputs.json), HTTP on its own port:
 * - `PUT /records {name, type: "A"|"CNAME"|"TXT", value}`: sets the record (a TXT adds a value, an A or CNAME replaces
 *   the name's), 204;
 * - `DELETE /records` clears every record, `DELETE /records?name=<name>[&type=<type>]` the name's (of that type), 204;
 * - `GET /records`: every record, JSON.
 */
export interface DnsStandIn {
  /** The control endpoint. */
  controlUrl: string;
  /** `127.0.0.1:<port>` of the UDP server: what DNS_RESOLVER names. */
  resolver: string;
  stop(): Promise<void>;
}

const sendJson = jsonReplies();
const normal = (name: string) => name.trim().toLowerCase().replace(/\.$/, '');

export const startDnsStandIn = async (options: { controlPort: number; udpPort?: number }): Promise<DnsStandIn> => {
  let records: Answer[] = [];

  const socket: Socket = createSocket('udp4');
  socket.on('message', (msg, remote) => {
    let question;
    try {
      question = parseQuery(msg);
    } catch {
      return;
    }
    if (!question) return;
    const atName = records.filter((r) => r.name === question.name);
    const cname = atName.filter((r) => r.type === 'CNAME');
    const answers = cname.length > 0 ? cname : atName.filter((r) => TYPES[r.type] === question.type);
    socket.send(encodeResponse(question, answers, atName.length === 0), remote.port, remote.address);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(options.udpPort ?? 0, '127.0.0.1', () => resolve());
  });

  const control = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://dns');
    if (url.pathname !== '/records') return sendJson(res, 404, { error: 'PUT, DELETE or GET /records' });
    if (req.method === 'GET') return sendJson(res, 200, { records });
    if (req.method === 'DELETE') {
      const name = url.searchParams.get('name');
      const type = url.searchParams.get('type');
      records = name === null ? [] : records.filter((r) => !(r.name === normal(name) && (type === null || r.type === type)));
      return noContent(res);
    }
    if (req.method !== 'PUT') return sendJson(res, 405, { error: 'PUT, DELETE or GET /records' });
    void readBody(req).then((raw) => {
      let body: { name?: unknown; type?: unknown; value?: unknown };
      try {
        body = JSON.parse(raw) as typeof body;
      } catch {
        return sendJson(res, 400, { error: 'a JSON body {name, type, value}' });
      }
      const { name, type, value } = body;
      if (typeof name !== 'string' || typeof value !== 'string' || !recordTypes.includes(type as RecordType) || normal(name) === '') {
        return sendJson(res, 400, { error: `{name, type: ${recordTypes.join('|')}, value}` });
      }
      if (type === 'A' && !/^\d{1,3}(\.\d{1,3}){3}$/.test(value)) return sendJson(res, 400, { error: 'an A record is an IPv4 address' });
      const record: Answer = { name: normal(name), type: type as RecordType, value: type === 'TXT' ? value : normal(value) };
      // A TXT adds a value; an A or a CNAME replaces the name's (a CNAME stands alone at its name).
      if (record.type !== 'TXT') records = records.filter((r) => !(r.name === record.name && (r.type === record.type || record.type === 'CNAME')));
      if (!records.some((r) => r.name === record.name && r.type === record.type && r.value === record.value)) records.push(record);
      noContent(res);
    });
  });
  await listen(control, options.controlPort, 'DNS_PORT');

  const { port } = socket.address();
  return {
    controlUrl: `http://127.0.0.1:${(control.address() as AddressInfo).port}`,
    resolver: `127.0.0.1:${port}`,
    stop: async () => {
      await closeServer(control);
      await new Promise<void>((resolve) => socket.close(() => resolve()));
    },
  };
};
