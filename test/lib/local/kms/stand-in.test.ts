import { createHash, createPublicKey, verify } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DecryptCommand, GetPublicKeyCommand, KMSClient, SignCommand } from '@aws-sdk/client-kms';
import { decodeProtectedHeader, importJWK, jwtVerify } from 'jose';
import { afterAll, describe, expect, it } from 'vitest';
import { derToJose, kmsSignerWith } from '#adapters/kms-signer.ts';
import { signCredential } from '#core/certificates/credentials.ts';
import { startKmsStandIn } from '#lib/local/kms/stand-in.ts';

/** The KMS stand-in through the official SDK, as the certificate signer (functions/adapters/kms-signer.ts) calls it. */
const dir = mkdtempSync(join(tmpdir(), 'kms-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const started = async () => {
  const kms = await startKmsStandIn({ port: 0, keysFile: join(dir, 'kms-keys.json') });
  const client = new KMSClient({ region: 'eu-west-2', endpoint: kms.url, credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, maxAttempts: 1 });
  return { kms, client };
};

describe('the local KMS stand-in', () => {
  it('answers GetPublicKey and Sign (DIGEST and RAW, ECDSA_SHA_256) as KMS does: the signatures verify with the public key', async () => {
    const { kms, client } = await started();
    try {
      const key = await client.send(new GetPublicKeyCommand({ KeyId: kms.certificateKeyArn }));
      expect(key).toMatchObject({ KeyId: kms.certificateKeyArn, KeySpec: 'ECC_NIST_P256', KeyUsage: 'SIGN_VERIFY', SigningAlgorithms: ['ECDSA_SHA_256'] });
      const publicKey = createPublicKey({ key: Buffer.from(key.PublicKey!), format: 'der', type: 'spki' });
      const message = Buffer.from('x'.repeat(10_000));
      const digest = createHash('sha256').update(message).digest();
      const signed = await client.send(new SignCommand({ KeyId: kms.certificateKeyArn, Message: digest, MessageType: 'DIGEST', SigningAlgorithm: 'ECDSA_SHA_256' }));
      expect(verify('sha256', message, publicKey, Buffer.from(signed.Signature!))).toBe(true);
      const raw = await client.send(new SignCommand({ KeyId: kms.certificateKeyArn, Message: Buffer.from('short'), MessageType: 'RAW', SigningAlgorithm: 'ECDSA_SHA_256' }));
      expect(verify('sha256', Buffer.from('short'), publicKey, Buffer.from(raw.Signature!))).toBe(true);
      expect(verify('sha256', Buffer.from('other'), publicKey, Buffer.from(raw.Signature!))).toBe(false);
    } finally {
      await kms.stop();
    }
  });

  it("refuses what KMS refuses: a raw message over 4,096 bytes, a wrong digest, an unknown key, and Decrypt (this key only signs)", async () => {
    const { kms, client } = await started();
    try {
      const sign = (input: Partial<ConstructorParameters<typeof SignCommand>[0]>) =>
        client.send(new SignCommand({ KeyId: kms.certificateKeyArn, Message: Buffer.from('m'), MessageType: 'RAW', SigningAlgorithm: 'ECDSA_SHA_256', ...input }));
      await expect(sign({ Message: Buffer.alloc(4097, 1) })).rejects.toMatchObject({ name: 'ValidationException' });
      await expect(sign({ Message: Buffer.alloc(20, 1), MessageType: 'DIGEST' })).rejects.toMatchObject({ name: 'ValidationException' });
      await expect(sign({ KeyId: 'no-such-key' })).rejects.toMatchObject({ name: 'NotFoundException' });
      await expect(client.send(new DecryptCommand({ KeyId: kms.certificateKeyArn, CiphertextBlob: Buffer.from('x') }))).rejects.toMatchObject({ name: 'UnsupportedOperationException' });
    } finally {
      await kms.stop();
    }
  });

  it('keeps its key across restarts (credentials signed before keep verifying), and signs VC-JWTs an outside jose verifies', async () => {
    const first = await started();
    const signer = kmsSignerWith(first.client, first.kms.certificateKeyArn);
    const jwk = await signer.publicJwk();
    const jwt = await signCredential(
      { id: 'urn:uuid:1', issuer: { id: 'https://x.example/api/public/issuer' }, validFrom: '2026-11-20T10:00:00.000Z', credentialSubject: { id: 'urn:uuid:2' } },
      { kid: 'https://x.example/api/public/issuer/keys/k', alg: signer.alg, sign: (input) => signer.sign(input) },
    );
    await first.kms.stop();
    const again = await started();
    try {
      expect(again.kms.certificateKeyArn).toBe(first.kms.certificateKeyArn);
      expect(await kmsSignerWith(again.client, again.kms.certificateKeyArn).publicJwk()).toEqual(jwk);
      expect(decodeProtectedHeader(jwt)).toEqual({ alg: 'ES256', kid: 'https://x.example/api/public/issuer/keys/k', typ: 'JWT' });
      const { payload } = await jwtVerify(jwt, await importJWK(jwk, 'ES256'), { algorithms: ['ES256'] });
      expect(payload).toMatchObject({ iss: 'https://x.example/api/public/issuer', jti: 'urn:uuid:1', sub: 'urn:uuid:2' });
    } finally {
      await again.kms.stop();
    }
  });

  it('turns a DER signature with padded or short integers into JWS r || s', () => {
    const der = Buffer.from([0x30, 0x08, 0x02, 0x02, 0x00, 0x80, 0x02, 0x02, 0x01, 0x02]);
    const jose = derToJose(der, 4);
    expect([...jose]).toEqual([0, 0, 0, 0x80, 0, 0, 1, 2]);
  });
});
