import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { base64url, decodeProtectedHeader, importJWK, type JWK, jwtVerify } from 'jose';

/**
 * Certificates as Open Badges 3.0 credentials (issue 15; decision 0021), pure apart from the crypto: the credential
 * of a completed course (the platform as issuer, the course as the achievement with its creator, the learner as a
 * hashed email identity), signed as a VC-JWT (ES256 by the KMS key; EdDSA / Ed25519 by the first key, OB 3.0 section 8.2: header `alg`, `kid`, `typ`;
 * claims `iss`, `jti`, `nbf`, `sub` mirroring the credential), verified by checking the signature against the
 * platform's keys and every claim against the credential, and revocation published as a W3C Bitstring Status List.
 */

export const CREDENTIAL_CONTEXTS = ['https://www.w3.org/ns/credentials/v2', 'https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json'] as const;
export const PLATFORM_NAME = 'Course Platform';
/** The smallest list the Bitstring Status List spec allows (16 KB of bits): no list reveals how few were issued. */
export const STATUS_LIST_BITS = 131_072;
/** The algorithm of the first key (made by the platform, Ed25519): credentials it signed keep verifying. */
export const LEGACY_ALG = 'EdDSA';
/** The algorithms credentials are signed with: ES256 by the KMS key (decision 0030), EdDSA by the first key. */
export type SigningAlg = 'ES256' | 'EdDSA';

/** What a certificate says, before it is a credential. */
export interface CertificateFacts {
  id: string;
  issuedAt: string;
  learnerId: string;
  learnerEmail: string;
  /** The learner's "Name on certificates", shown in the clear; null when they gave none. */
  learnerName: string | null;
  courseId: string;
  courseTitle: string;
  courseDescription: string;
  creatorId: string;
  creatorName: string;
  /** The certificate's place in the revocation status lists: the list, and the index in it. */
  statusList: number;
  statusIndex: number;
}

/** Where the platform publishes what a verifier reads: its origin (the issuer id and the links derive from it). */
export interface Issuer {
  origin: string;
}

/**
 * A branded creator's school as the credential's issuer shows it (issue 32): its name and its logo's lasting link. The
 * issuer's id stays the platform's (its keys sign and its status lists revoke), so a verifier checks it as any other.
 */
export interface IssuingSchool {
  name: string;
  logoUrl: string | null;
}

const trim = (origin: string) => origin.replace(/\/+$/, '');
export const issuerId = (issuer: Issuer) => `${trim(issuer.origin)}/api/public/issuer`;
/** A status list's URL: the first keeps the URL it had before lists were paged; the next ones carry their number. */
export const statusListUrl = (issuer: Issuer, list = 0) => `${trim(issuer.origin)}/api/public/certificate-status-list${list === 0 ? '' : `/${list}`}`;
/** A signing key's URL: it answers the public JWK itself (the credential's `kid`, as OB 3.0 VC-JWT verification expects). */
export const keyUrl = (issuer: Issuer, keyId: string) => `${issuerId(issuer)}/keys/${encodeURIComponent(keyId)}`;
/** Where a global place (the status index counter) falls: its list and its index there, lists of `size` entries. */
export const statusPlace = (allocated: number, size: number) => ({ statusList: Math.floor(allocated / size), statusIndex: allocated % size });
export const verifyUrl = (issuer: Issuer, certificateId: string) => `${trim(issuer.origin)}/verify/${encodeURIComponent(certificateId)}`;

/** The learner's email as an OB 3.0 IdentityObject: salted SHA-256, so the credential names them without showing it. */
export const identityHash = (email: string, salt: string): string => `sha256$${createHash('sha256').update(`${email.trim().toLowerCase()}${salt}`).digest('hex')}`;

export type OpenBadgeCredential = ReturnType<typeof credentialOf>;

/** The Open Badges 3.0 credential of a completed course. */
export const credentialOf = (facts: CertificateFacts, issuer: Issuer, school?: IssuingSchool) => {
  const origin = trim(issuer.origin);
  const salt = createHash('sha256').update(`salt:${facts.id}`).digest('hex').slice(0, 16);
  return {
    '@context': [...CREDENTIAL_CONTEXTS],
    id: `urn:uuid:${facts.id}`,
    type: ['VerifiableCredential', 'OpenBadgeCredential'],
    name: facts.courseTitle,
    issuer: issuerProfileOf(issuer, school),
    validFrom: facts.issuedAt,
    credentialSubject: {
      id: `urn:uuid:${facts.learnerId}`,
      type: ['AchievementSubject'],
      identifier: [
        { type: 'IdentityObject', identityType: 'emailAddress', hashed: true, identityHash: identityHash(facts.learnerEmail, salt), salt },
        // OB 3.0 IdentityObject of type `name`: the name the learner chose, in the clear (unhashed) for people to read.
        ...(facts.learnerName ? [{ type: 'IdentityObject', identityType: 'name', hashed: false, identityHash: facts.learnerName }] : []),
      ],
      achievement: {
        id: `${origin}/c/${encodeURIComponent(facts.courseId)}`,
        type: ['Achievement'],
        name: facts.courseTitle,
        description: facts.courseDescription || `Completion of ${facts.courseTitle}.`,
        criteria: { narrative: 'Completed every lesson and passed every quiz of the course.' },
        creator: { id: `${origin}/api/public/creators/${encodeURIComponent(facts.creatorId)}`, type: ['Profile'], name: facts.creatorName },
      },
    },
    credentialStatus: statusEntryOf(issuer, facts),
  };
};

/** The credential's issuer (OB 3.0 Profile): the platform, or a branded school by name with its logo as `image`. */
const issuerProfileOf = (issuer: Issuer, school: IssuingSchool | undefined) => ({
  id: issuerId(issuer),
  type: ['Profile'],
  name: school?.name ?? PLATFORM_NAME,
  url: trim(issuer.origin),
  ...(school?.logoUrl ? { image: { id: school.logoUrl, type: 'Image', caption: school.name } } : {}),
});

/** A certificate's entry in the revocation status list. */
export const statusEntryOf = (issuer: Issuer, place: { statusList: number; statusIndex: number }) => ({
  id: `${statusListUrl(issuer, place.statusList)}#${place.statusIndex}`,
  type: 'BitstringStatusListEntry',
  statusPurpose: 'revocation',
  statusListIndex: String(place.statusIndex),
  statusListCredential: statusListUrl(issuer, place.statusList),
});

/**
 * The credential re-issued (to a new name, or none) as a new credential: a new id and a new place in the status list,
 * the learner's `name` identity replaced, everything else (the course, the dates, the email identity) as issued. Fed
 * the decoded VC-JWT payload, it drops the registered claims (signing sets them again from the credential).
 */
export const reissuedCredential = (
  issued: OpenBadgeCredential & Record<string, unknown>,
  next: { id: string; learnerName: string | null; statusList: number; statusIndex: number },
  issuer: Issuer,
): OpenBadgeCredential => {
  const { iss: _iss, jti: _jti, nbf: _nbf, sub: _sub, iat: _iat, exp: _exp, ...credential } = issued;
  const others = credential.credentialSubject.identifier.filter((identity) => identity.identityType !== 'name');
  const named = next.learnerName ? [{ type: 'IdentityObject', identityType: 'name', hashed: false, identityHash: next.learnerName }] : [];
  return {
    ...credential,
    id: `urn:uuid:${next.id}`,
    credentialSubject: { ...credential.credentialSubject, identifier: [...others, ...named] },
    credentialStatus: statusEntryOf(issuer, next),
  } as OpenBadgeCredential;
};

/** The platform's signing key: its key id (`kid`), its algorithm, and a signature over a JWS signing input. */
export interface SigningKey {
  kid: string;
  alg: SigningAlg;
  /** The JWS signature of the input (ES256: r || s, 64 bytes; EdDSA: 64 bytes). */
  sign(signingInput: Uint8Array): Promise<Uint8Array>;
}

const json64 = (value: unknown) => base64url.encode(JSON.stringify(value));

/**
 * A credential signed as a VC-JWT: the credential is the payload, with the registered claims that mirror it (`iss`,
 * `jti`, `nbf`, `sub`), the header only `alg`, `kid`, `typ` (OB 3.0 section 8.2). The JWS is assembled here and
 * signed by the key (KMS in the cloud: the private key never leaves it).
 */
export const signCredential = async (
  credential: { id: string; issuer: { id: string }; validFrom: string; credentialSubject?: { id: string } },
  key: SigningKey,
): Promise<string> => {
  const header = json64({ alg: key.alg, kid: key.kid, typ: 'JWT' });
  const payload = json64({
    ...credential,
    iss: credential.issuer.id,
    jti: credential.id,
    nbf: Math.floor(Date.parse(credential.validFrom) / 1000),
    sub: credential.credentialSubject?.id ?? credential.id,
  });
  const signature = await key.sign(new TextEncoder().encode(`${header}.${payload}`));
  return `${header}.${payload}.${base64url.encode(signature)}`;
};

/** The algorithm a published key verifies: its own `alg`, else by its type (the first key's JWK names none). */
const algOf = (key: JWK): SigningAlg => (key.alg === 'ES256' || key.kty === 'EC' ? 'ES256' : LEGACY_ALG);

export interface Verification {
  verified: boolean;
  /** The credential the JWT carries, once its signature and claims check out. */
  credential?: OpenBadgeCredential;
  errors: string[];
}

/**
 * A VC-JWT checked as a verifier would: the header (EdDSA, JWT, a key the platform published), the signature, and each
 * registered claim against the credential it carries (jose checks none of them). Any altered byte fails. Answers the
 * payload (a certificate or the status list) once it checks out.
 */
export const verifySigned = async (jwt: string, publicKeys: JWK[], issuer: Issuer): Promise<{ payload?: Record<string, unknown>; errors: string[] }> => {
  let header;
  try {
    header = decodeProtectedHeader(jwt);
  } catch {
    return { errors: ['This is not a signed credential (a VC-JWT).'] };
  }
  const key = publicKeys.find((k) => k.kid === header.kid);
  if (!key || header.alg !== algOf(key) || header.typ !== 'JWT') return { errors: ['The credential was not signed with a key of this platform.'] };
  try {
    // A few minutes' tolerance on `nbf`: a verifier's clock may run behind the platform's.
    const alg = algOf(key);
    const { payload } = await jwtVerify(jwt, await importJWK(key, alg), { algorithms: [alg], typ: 'JWT', clockTolerance: '5 minutes' });
    const claimed = payload as { iss?: string; jti?: string; nbf?: number; sub?: string; id?: string; validFrom?: string; issuer?: { id?: string }; credentialSubject?: { id?: string } };
    const errors = [
      claimed.iss !== claimed.issuer?.id && 'The issuer claim does not match the credential.',
      claimed.issuer?.id !== issuerId(issuer) && 'The credential names another issuer.',
      claimed.jti !== claimed.id && 'The id claim does not match the credential.',
      claimed.nbf !== Math.floor(Date.parse(claimed.validFrom ?? '') / 1000) && 'The date claim does not match the credential.',
      claimed.sub !== (claimed.credentialSubject?.id ?? claimed.id) && 'The subject claim does not match the credential.',
    ].filter((e): e is string => typeof e === 'string');
    return errors.length > 0 ? { errors } : { payload, errors: [] };
  } catch (error) {
    return { errors: [`The signature does not match: the credential was altered or is not from this platform (${(error as Error).message}).`] };
  }
};

/** A certificate's VC-JWT verified (verifySigned) and checked to be an Open Badges credential. */
export const verifyCredential = async (jwt: string, publicKeys: JWK[], issuer: Issuer): Promise<Verification> => {
  const { payload, errors } = await verifySigned(jwt, publicKeys, issuer);
  if (!payload) return { verified: false, errors };
  const credential = payload as unknown as OpenBadgeCredential;
  if (!credential.type?.includes('OpenBadgeCredential')) return { verified: false, errors: ['This is not an Open Badges credential.'] };
  return { verified: true, credential, errors: [] };
};

/** The status list's bits, gzipped, as the spec encodes them: "u" + base64url; bit 0 is the most significant of byte 0. */
export const encodeStatusList = (revoked: Iterable<number>): string => {
  const bits = new Uint8Array(STATUS_LIST_BITS / 8);
  for (const index of revoked) {
    if (!Number.isInteger(index) || index < 0 || index >= STATUS_LIST_BITS) throw new RangeError(`status index ${index} is outside the list`);
    bits[index >> 3]! |= 0x80 >> (index & 7);
  }
  return `u${base64url.encode(gzipSync(bits))}`;
};

/** Whether a status list (as encoded) has `index` set: revoked. */
export const isSetInStatusList = (encodedList: string, index: number): boolean => {
  const bits = gunzipSync(base64url.decode(encodedList.replace(/^u/, '')));
  return index >= 0 && index < bits.length * 8 && (bits[index >> 3]! & (0x80 >> (index & 7))) !== 0;
};

/** The status list credential (W3C Bitstring Status List), from the same issuer, to be signed like a certificate. */
export const statusListCredentialOf = (encodedList: string, issuer: Issuer, validFrom: string, list = 0) => ({
  '@context': ['https://www.w3.org/ns/credentials/v2'],
  id: statusListUrl(issuer, list),
  type: ['VerifiableCredential', 'BitstringStatusListCredential'],
  issuer: { id: issuerId(issuer) },
  validFrom,
  credentialSubject: { id: `${statusListUrl(issuer, list)}#list`, type: 'BitstringStatusList', statusPurpose: 'revocation', encodedList },
});
