import { randomBytes } from 'node:crypto';

/**
 * ECDSA over NIST P-256 on a digest given (KMS's `MessageType: DIGEST`), which Node's crypto cannot do (it always
 * hashes the message itself). For the local KMS stand-in only; the tests check every signature with Node's own
 * verifier. Jacobian coordinates, a = -3.
 */
const P = 0xffffffff00000001000000000000000000000000ffffffffffffffffffffffffn;
const N = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;
const G = { x: 0x6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296n, y: 0x4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5n };

type Jacobian = { x: bigint; y: bigint; z: bigint } | null;

const mod = (a: bigint, m: bigint) => ((a % m) + m) % m;
const pow = (base: bigint, exp: bigint, m: bigint) => {
  let result = 1n;
  let b = mod(base, m);
  for (let e = exp; e > 0n; e >>= 1n) {
    if (e & 1n) result = (result * b) % m;
    b = (b * b) % m;
  }
  return result;
};
const inverse = (a: bigint, m: bigint) => pow(a, m - 2n, m);

const double = (p: Jacobian): Jacobian => {
  if (!p || p.y === 0n) return null;
  const delta = (p.z * p.z) % P;
  const gamma = (p.y * p.y) % P;
  const beta = (p.x * gamma) % P;
  const alpha = mod(3n * (p.x - delta) * (p.x + delta), P);
  const x = mod(alpha * alpha - 8n * beta, P);
  const z = mod((p.y + p.z) ** 2n - gamma - delta, P);
  const y = mod(alpha * (4n * beta - x) - 8n * gamma * gamma, P);
  return { x, y, z };
};

const add = (p: Jacobian, q: Jacobian): Jacobian => {
  if (!p) return q;
  if (!q) return p;
  const z1z1 = (p.z * p.z) % P;
  const z2z2 = (q.z * q.z) % P;
  const u1 = (p.x * z2z2) % P;
  const u2 = (q.x * z1z1) % P;
  const s1 = (p.y * q.z * z2z2) % P;
  const s2 = (q.y * p.z * z1z1) % P;
  if (u1 === u2) return s1 === s2 ? double(p) : null;
  const h = mod(u2 - u1, P);
  const i = (4n * h * h) % P;
  const j = (h * i) % P;
  const r = mod(2n * (s2 - s1), P);
  const v = (u1 * i) % P;
  const x = mod(r * r - j - 2n * v, P);
  const y = mod(r * (v - x) - 2n * s1 * j, P);
  const z = mod(((p.z + q.z) ** 2n - z1z1 - z2z2) * h, P);
  return { x, y, z };
};

const multiplyG = (k: bigint): bigint => {
  let result: Jacobian = null;
  let addend: Jacobian = { ...G, z: 1n };
  for (let e = k; e > 0n; e >>= 1n) {
    if (e & 1n) result = add(result, addend);
    addend = double(addend);
  }
  if (!result) throw new Error('point at infinity');
  const zInverse = inverse(result.z, P);
  return (result.x * zInverse * zInverse) % P;
};

const bigintOf = (bytes: Uint8Array) => BigInt(`0x${Buffer.from(bytes).toString('hex') || '0'}`);

/** A DER INTEGER of a non-negative value (a leading zero byte when its top bit is set). */
const derInteger = (value: bigint): Buffer => {
  let hex = value.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  let bytes = Buffer.from(hex, 'hex');
  if (bytes[0]! & 0x80) bytes = Buffer.concat([Buffer.from([0]), bytes]);
  return Buffer.concat([Buffer.from([0x02, bytes.length]), bytes]);
};

/** The ECDSA signature of a 32-byte digest under private scalar `d` (big-endian bytes), DER-encoded as KMS answers it. */
export const signDigest = (privateKey: Uint8Array, digest: Uint8Array): Buffer => {
  const d = bigintOf(privateKey);
  const z = bigintOf(digest.subarray(0, 32));
  for (;;) {
    const k = mod(bigintOf(randomBytes(40)), N - 1n) + 1n;
    const r = mod(multiplyG(k), N);
    if (r === 0n) continue;
    const s = mod(inverse(k, N) * (z + r * d), N);
    if (s === 0n) continue;
    const body = Buffer.concat([derInteger(r), derInteger(s)]);
    return Buffer.concat([Buffer.from([0x30, body.length]), body]);
  }
};
