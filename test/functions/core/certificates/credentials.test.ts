import { gunzipSync } from 'node:zlib';
import { generateKeyPairSync, sign as nodeSign } from 'node:crypto';
import { createLocalJWKSet, decodeJwt, type JWK, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import {
  credentialOf,
  encodeStatusList,
  identityHash,
  isSetInStatusList,
  reissuedCredential,
  signCredential,
  STATUS_LIST_BITS,
  statusListCredentialOf,
  statusPlace,
  statusEntryOf,
  verifyCredential,
  verifySigned,
  type CertificateFacts,
  type SigningKey,
} from '#core/certificates/credentials.ts';

const issuer = { origin: 'https://courses.example' };
const facts: CertificateFacts = {
  id: '0b6d1c2e-9a4f-4e53-8f6f-6e0e2f6f1a11',
  issuedAt: '2026-11-20T10:00:00.000Z',
  learnerId: 'c1a2b3c4-0000-4000-8000-000000000001',
  learnerEmail: 'Ann@Example.com',
  learnerName: 'Ann Smith',
  courseId: 'course-1',
  courseTitle: 'Knife safety',
  courseDescription: 'Hold, cut and store knives safely.',
  creatorId: 'creator-1',
  creatorName: 'Maya Green',
  statusList: 0,
  statusIndex: 42,
};

/** A signing key as the KMS adapter gives one (ES256, r || s), or the platform's first (EdDSA), with its public JWK. */
const keyPair = async (kid: string, alg: 'ES256' | 'EdDSA' = 'ES256'): Promise<{ signing: SigningKey; publicJwk: JWK }> => {
  const { privateKey, publicKey } = alg === 'ES256' ? generateKeyPairSync('ec', { namedCurve: 'P-256' }) : generateKeyPairSync('ed25519');
  const sign = async (input: Uint8Array) => new Uint8Array(alg === 'ES256' ? nodeSign('sha256', input, { key: privateKey, dsaEncoding: 'ieee-p1363' }) : nodeSign(null, input, privateKey));
  return { signing: { kid, alg, sign }, publicJwk: { ...(publicKey.export({ format: 'jwk' }) as JWK), kid } };
};

/** Every leaf of a JSON value with its path. */
const leaves = (value: unknown, path: (string | number)[] = []): (string | number)[][] =>
  value !== null && typeof value === 'object'
    ? Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => leaves(v, [...path, Array.isArray(value) ? Number(k) : k]))
    : [path];

/** The JWT with one payload field changed (the header and signature kept): what a forger would try. */
const altered = (jwt: string, path: (string | number)[]): string => {
  const [header, payload, signature] = jwt.split('.') as [string, string, string];
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
  let at: Record<string | number, unknown> = claims;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
  const last = path.at(-1)!;
  at[last] = typeof at[last] === 'number' ? (at[last] as number) + 1 : typeof at[last] === 'boolean' ? !at[last] : `${String(at[last])}x`;
  return `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
};

describe('an Open Badges 3.0 certificate', () => {
  it('names the platform as issuer, the course as the achievement with its creator, and the learner by a salted email hash', () => {
    const credential = credentialOf(facts, issuer);
    expect(credential.type).toEqual(['VerifiableCredential', 'OpenBadgeCredential']);
    expect(credential.issuer).toMatchObject({ id: 'https://courses.example/api/public/issuer', name: 'Course Platform' });
    expect(credential.credentialSubject.achievement).toMatchObject({ name: 'Knife safety', creator: { name: 'Maya Green' } });
    const [identity] = credential.credentialSubject.identifier;
    expect(identity!.identityHash).toBe(identityHash('ann@example.com', identity!.salt!));
    expect(JSON.stringify(credential)).not.toContain('ann@example.com');
    expect(credential.credentialStatus).toMatchObject({ type: 'BitstringStatusListEntry', statusPurpose: 'revocation', statusListIndex: '42' });
  });

  it("carries the learner's name in the clear as an OB 3.0 `name` identity, and none when they gave none", () => {
    expect(credentialOf(facts, issuer).credentialSubject.identifier[1]).toEqual({ type: 'IdentityObject', identityType: 'name', hashed: false, identityHash: 'Ann Smith' });
    expect(credentialOf({ ...facts, learnerName: null }, issuer).credentialSubject.identifier.map((i) => i.identityType)).toEqual(['emailAddress']);
  });

  it('is re-issued to a new name as a new credential (new id, new status entry), everything else as issued, and verifies', async () => {
    const { signing, publicJwk } = await keyPair('k1');
    type Issued = Parameters<typeof reissuedCredential>[0];
    const issued = decodeJwt(await signCredential(credentialOf({ ...facts, learnerName: null }, issuer), signing)) as unknown as Issued;
    const next = { id: '7f1e0c2d-1111-4222-8333-444455556666', learnerName: 'Ann B. Smith', statusList: 2, statusIndex: 43 };
    const renamed = reissuedCredential(issued, next, issuer);
    const { id: _id, credentialStatus: _status, credentialSubject: { identifier: _identifier, ...subject }, ...rest } = credentialOf({ ...facts, learnerName: 'Ann B. Smith' }, issuer);
    expect(renamed).toMatchObject({ ...rest, credentialSubject: subject });
    expect(renamed.id).toBe(`urn:uuid:${next.id}`);
    expect(renamed.credentialStatus).toMatchObject({ statusListIndex: '43', statusListCredential: 'https://courses.example/api/public/certificate-status-list/2', id: 'https://courses.example/api/public/certificate-status-list/2#43' });
    // The email identity (its salt derived from the first id) is kept as issued; the name replaced, or dropped.
    expect(renamed.credentialSubject.identifier).toEqual([issued.credentialSubject.identifier[0], { type: 'IdentityObject', identityType: 'name', hashed: false, identityHash: 'Ann B. Smith' }]);
    expect(reissuedCredential(renamed as Issued, { ...next, learnerName: null }, issuer).credentialSubject.identifier).toEqual([issued.credentialSubject.identifier[0]]);
    const result = await verifyCredential(await signCredential(renamed, signing), [publicJwk], issuer);
    expect(result).toMatchObject({ verified: true });
    expect(result.credential?.credentialSubject.identifier.at(-1)?.identityHash).toBe('Ann B. Smith');
  });

  it('verifies as signed, with the registered claims mirroring the credential', async () => {
    const { signing, publicJwk } = await keyPair('https://courses.example/api/public/issuer#1');
    const jwt = await signCredential(credentialOf(facts, issuer), signing);
    const header = JSON.parse(Buffer.from(jwt.split('.')[0]!, 'base64url').toString()) as Record<string, unknown>;
    expect(header).toEqual({ alg: 'ES256', kid: signing.kid, typ: 'JWT' });
    const result = await verifyCredential(jwt, [publicJwk], issuer);
    expect(result).toMatchObject({ verified: true, errors: [] });
    expect(result.credential?.credentialSubject.achievement.name).toBe('Knife safety');
    // As an outside verifier checks it: jose alone, the key found at the kid's URL.
    const { payload } = await jwtVerify(jwt, createLocalJWKSet({ keys: [publicJwk] }), { algorithms: ['ES256'] });
    expect(payload.jti).toBe(`urn:uuid:${facts.id}`);
  });

  it("names a branded creator's school as issuer, with its logo as the issuer's image, under the platform's issuer id, and verifies", async () => {
    const logoUrl = 'https://courses.example/api/public/schools/creator-1/logo?v=01JB0000000000000000000000';
    const credential = credentialOf(facts, issuer, { name: 'Clay & Kiln', logoUrl });
    expect(credential.issuer).toEqual({
      id: 'https://courses.example/api/public/issuer',
      type: ['Profile'],
      name: 'Clay & Kiln',
      url: 'https://courses.example',
      image: { id: logoUrl, type: 'Image', caption: 'Clay & Kiln' },
    });
    // A school without a logo: its name, no image.
    expect(credentialOf(facts, issuer, { name: 'Clay & Kiln', logoUrl: null }).issuer).not.toHaveProperty('image');
    expect(credentialOf(facts, issuer).issuer).not.toHaveProperty('image');
    const { signing, publicJwk } = await keyPair('https://courses.example/api/public/issuer#1');
    const result = await verifyCredential(await signCredential(credential, signing), [publicJwk], issuer);
    expect(result).toMatchObject({ verified: true, errors: [] });
    expect(result.credential?.issuer).toMatchObject({ name: 'Clay & Kiln', image: { id: logoUrl } });
  });

  it('keeps verifying credentials the first key (EdDSA) signed, beside the KMS key (ES256); an algorithm swapped is refused', async () => {
    const first = await keyPair('https://courses.example/api/public/issuer#1', 'EdDSA');
    const kms = await keyPair('https://courses.example/api/public/issuer/keys/abc');
    const keys = [first.publicJwk, kms.publicJwk];
    expect(await verifyCredential(await signCredential(credentialOf(facts, issuer), first.signing), keys, issuer)).toMatchObject({ verified: true });
    expect(await verifyCredential(await signCredential(credentialOf(facts, issuer), kms.signing), keys, issuer)).toMatchObject({ verified: true });
    const swapped = await signCredential(credentialOf(facts, issuer), { ...first.signing, kid: kms.signing.kid });
    expect(await verifyCredential(swapped, keys, issuer)).toMatchObject({ verified: false });
  });

  it('fails for every single-field alteration, for another key, another issuer and a changed signature byte', async () => {
    const { signing, publicJwk } = await keyPair('k1');
    const jwt = await signCredential(credentialOf(facts, issuer), signing);
    const payload = JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as unknown;
    const paths = leaves(payload);
    expect(paths.length).toBeGreaterThan(25);
    for (const path of paths) {
      const result = await verifyCredential(altered(jwt, path), [publicJwk], issuer);
      expect(result.verified, path.join('.')).toBe(false);
      expect(result.errors.length, path.join('.')).toBeGreaterThan(0);
    }
    const other = await keyPair('k1');
    expect((await verifyCredential(jwt, [other.publicJwk], issuer)).verified).toBe(false);
    expect((await verifyCredential(jwt, [publicJwk], { origin: 'https://elsewhere.example' })).verified).toBe(false);
    const signature = jwt.split('.')[2]!;
    const flipped = `${jwt.slice(0, jwt.length - signature.length)}${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
    expect((await verifyCredential(flipped, [publicJwk], issuer)).verified).toBe(false);
    expect((await verifyCredential('not a jwt', [publicJwk], issuer)).errors).toEqual(['This is not a signed credential (a VC-JWT).']);
  });
});

describe('the revocation status lists, in pages', () => {
  it('hand out places list by list: a new list when one is full, its number in the entry and the URL', () => {
    expect([0, 1, 2, 3, 4].map((n) => statusPlace(n, 2))).toEqual([
      { statusList: 0, statusIndex: 0 },
      { statusList: 0, statusIndex: 1 },
      { statusList: 1, statusIndex: 0 },
      { statusList: 1, statusIndex: 1 },
      { statusList: 2, statusIndex: 0 },
    ]);
    expect(statusPlace(131_072, STATUS_LIST_BITS)).toEqual({ statusList: 1, statusIndex: 0 });
    // The first list keeps the URL it had before lists were paged: credentials issued then keep resolving.
    expect(statusEntryOf(issuer, { statusList: 0, statusIndex: 7 }).statusListCredential).toBe('https://courses.example/api/public/certificate-status-list');
    expect(statusEntryOf(issuer, { statusList: 3, statusIndex: 7 })).toMatchObject({ statusListCredential: 'https://courses.example/api/public/certificate-status-list/3', statusListIndex: '7' });
    expect(statusListCredentialOf('u', issuer, facts.issuedAt, 3).id).toBe('https://courses.example/api/public/certificate-status-list/3');
  });
});

describe('the revocation status list', () => {
  it('sets bit i as the most significant bit first, in a gzipped list of 131,072 bits, "u" + base64url', () => {
    const list = encodeStatusList([0, 9, STATUS_LIST_BITS - 1]);
    expect(list.startsWith('u')).toBe(true);
    for (const index of [0, 9, STATUS_LIST_BITS - 1]) expect(isSetInStatusList(list, index)).toBe(true);
    for (const index of [1, 8, 10, 42]) expect(isSetInStatusList(list, index)).toBe(false);
    const bits = new Uint8Array(gunzipSync(Buffer.from(list.slice(1), 'base64url')));
    expect(bits.length * 8).toBe(STATUS_LIST_BITS);
    expect(bits[0]).toBe(0x80);
    expect(bits[1]).toBe(0x40);
    expect(() => encodeStatusList([STATUS_LIST_BITS])).toThrow(RangeError);
  });

  it('is published as a signed Bitstring Status List credential from the same issuer', async () => {
    const { signing, publicJwk } = await keyPair('k1');
    const jwt = await signCredential(statusListCredentialOf(encodeStatusList([42]), issuer, facts.issuedAt), signing);
    const { payload } = await verifySigned(jwt, [publicJwk], issuer);
    const subject = (payload as { credentialSubject: { encodedList: string; statusPurpose: string } }).credentialSubject;
    expect(subject.statusPurpose).toBe('revocation');
    expect(isSetInStatusList(subject.encodedList, 42)).toBe(true);
    expect((await verifyCredential(jwt, [publicJwk], issuer)).errors).toEqual(['This is not an Open Badges credential.']);
  });
});
