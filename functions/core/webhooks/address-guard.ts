import { isIP } from 'node:net';

/**
 * The SSRF guard of webhook deliveries (issue 31 point 5, decision 0053): which addresses a delivery may connect to,
 * and which URLs an endpoint may have. Pure: the delivery adapter resolves the host (every address), asks
 * `forbiddenAddress` of each and connects to a checked one, never resolving twice (DNS rebinding).
 */

/** IPv4 dotted quad to a 32-bit number, or undefined. */
const v4 = (ip: string): number | undefined => {
  const parts = ip.split('.');
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255)) return undefined;
  return parts.reduce((n, p) => n * 256 + Number(p), 0);
};

const inV4 = (n: number, base: string, bits: number): boolean => {
  const b = v4(base)!;
  const size = 2 ** (32 - bits);
  return Math.floor(n / size) === Math.floor(b / size);
};

/** IPv4 ranges no delivery may reach: "this network", private, shared (CGNAT), loopback, link-local (the metadata address), and the rest that is not the public internet. */
const V4_BLOCKED: readonly [string, number][] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];

const forbiddenV4 = (n: number): boolean => V4_BLOCKED.some(([base, bits]) => inV4(n, base, bits));

/** An IPv6 address as its eight 16-bit groups (an embedded dotted IPv4 tail included), or undefined. */
const v6Groups = (ip: string): number[] | undefined => {
  let text = ip.toLowerCase().replace(/^\[|\]$/g, '');
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail) {
    const n = v4(tail[1]!);
    if (n === undefined) return undefined;
    text = `${text.slice(0, tail.index)}${Math.floor(n / 65536).toString(16)}:${(n % 65536).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const side = (s: string | undefined) => (s ? s.split(':').map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16) : NaN)) : []);
  const head = side(halves[0]);
  const rest = side(halves[1]);
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const groups = [...head, ...Array<number>(halves.length === 1 ? 0 : missing).fill(0), ...rest];
  return groups.some(Number.isNaN) ? undefined : groups;
};

const forbiddenV6 = (g: number[]): boolean => {
  const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, x = 0, y = 0] = g;
  const embedded = x * 65536 + y;
  if (a === 0 && b === 0 && c === 0 && d === 0) {
    // ::, ::1, IPv4-compatible (::a.b.c.d) and IPv4-mapped (::ffff:a.b.c.d): judged as the IPv4 address they carry.
    if (e === 0 && f === 0) return embedded <= 1 || forbiddenV4(embedded);
    if (e === 0 && f === 0xffff) return forbiddenV4(embedded);
    if (e === 0xffff && f === 0) return forbiddenV4(embedded); // ::ffff:0:a.b.c.d (SIIT)
    return true;
  }
  if (a === 0x64 && b === 0xff9b) return forbiddenV4(embedded); // NAT64 (64:ff9b::/96 and the local-use /48)
  if ((a & 0xfe00) === 0xfc00) return true; // unique local fc00::/7
  if ((a & 0xffc0) === 0xfe80) return true; // link-local fe80::/10
  if ((a & 0xffc0) === 0xfec0) return true; // site-local (deprecated) fec0::/10
  if ((a & 0xff00) === 0xff00) return true; // multicast
  if (a === 0x2001 && b === 0x0db8) return true; // documentation
  if (a === 0x2002) return forbiddenV4(b * 65536 + c); // 6to4 carries an IPv4 address
  if (a === 0x0100 && b === 0 && c === 0 && d === 0) return true; // discard-only 100::/64
  return false;
};

/**
 * True when a delivery must not connect to this address: private (10/8, 172.16/12, 192.168/16), loopback, link-local
 * (169.254/16, the instance metadata address among them; fe80::/10), unique local (fc00::/7), 0.0.0.0/8, shared
 * 100.64/10, multicast and reserved ranges, and IPv6 forms that carry one of those IPv4 addresses (mapped, compatible,
 * NAT64, 6to4). Anything that is not an IP address at all is forbidden too.
 */
export const forbiddenAddress = (ip: string): boolean => {
  const family = isIP(ip.replace(/^\[|\]$/g, '').replace(/%.*$/, ''));
  if (family === 4) return forbiddenV4(v4(ip)!);
  if (family === 6) {
    const groups = v6Groups(ip);
    return groups === undefined || forbiddenV6(groups);
  }
  return true;
};

/** The local cloud's one exception (config WEBHOOK_ALLOW_LOCAL_HTTP): `http://127.0.0.1:<port>`, so tests can receive. */
export const isLocalReceiver = (url: URL): boolean => url.protocol === 'http:' && url.hostname === '127.0.0.1' && url.port !== '';

/**
 * Whether an endpoint may have this URL, checked when it is created and again before every delivery: the message to
 * show when not, undefined when it may. https only (the local exception aside), no credentials in it, and a host that
 * is not a forbidden IP literal nor a name that only means this machine or a private network.
 */
export const webhookUrlProblem = (raw: string, allowLocalHttp: boolean): string | undefined => {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'Enter the full address, starting with https://.';
  }
  if (allowLocalHttp && isLocalReceiver(url)) return undefined;
  if (url.protocol !== 'https:') return 'The address must start with https://.';
  if (url.username || url.password) return 'The address must not contain a user name or password.';
  const host = url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
  if (isIP(host)) return forbiddenAddress(host) ? 'The address must be public: private, loopback and link-local addresses are not allowed.' : undefined;
  if (!host.includes('.') || host === 'localhost' || /\.(localhost|local|internal|localdomain|home\.arpa)$/.test(host)) {
    return 'The address must be a public host name: private, loopback and link-local addresses are not allowed.';
  }
  return undefined;
};
