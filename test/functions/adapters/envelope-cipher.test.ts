import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DecryptCommand, GenerateDataKeyCommand, KMSClient } from '@aws-sdk/client-kms';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { envelopeCipher, envelopeCipherWith, kmsDataKeys, localDataKeys } from '#adapters/envelope-cipher.ts';
import type { SealedSecret, SecretCipher } from '#core/ports.ts';
import { resetConfig } from '#functions/config.ts';

const fails = (promise: Promise<unknown>) => expect(promise).rejects.toThrow();
/** Flips one bit of a base64 part. */
const tampered = (part: string): string => {
  const bytes = Buffer.from(part, 'base64');
  bytes[0] = bytes[0]! ^ 1;
  return bytes.toString('base64');
};

/** The same promises, whichever key wraps the data keys. */
const behavesAsAnEnvelopeCipher = (name: string, make: () => SecretCipher) =>
  describe(name, () => {
    it('opens what it sealed, for the same creator', async () => {
      const cipher = make();
      const sealed = await cipher.encrypt('zoom-secret-✓', 'creator-1');
      expect(await cipher.decrypt(sealed, 'creator-1')).toBe('zoom-secret-✓');
    });

    it('stores no trace of the plaintext, and seals the same text differently each time', async () => {
      const cipher = make();
      const a = await cipher.encrypt('zoom-secret-123', 'creator-1');
      const b = await cipher.encrypt('zoom-secret-123', 'creator-1');
      expect(JSON.stringify(a)).not.toContain('zoom-secret-123');
      expect(Buffer.from(a.ciphertext, 'base64').toString('utf8')).not.toContain('zoom-secret-123');
      expect(a.ciphertext).not.toBe(b.ciphertext);
      expect(a.encryptedDataKey).not.toBe(b.encryptedDataKey);
    });

    it('refuses a blob altered in any part', async () => {
      const cipher = make();
      const sealed = await cipher.encrypt('zoom-secret', 'creator-1');
      for (const part of ['ciphertext', 'iv', 'tag', 'encryptedDataKey'] as const) {
        const altered: SealedSecret = { ...sealed, [part]: tampered(sealed[part]) };
        await fails(cipher.decrypt(altered, 'creator-1'));
      }
    });

    it("refuses to open one creator's secret as another's", async () => {
      const cipher = make();
      const sealed = await cipher.encrypt('zoom-secret', 'creator-1');
      await fails(cipher.decrypt(sealed, 'creator-2'));
    });
  });

behavesAsAnEnvelopeCipher('the local envelope cipher', () => envelopeCipherWith(localDataKeys(randomBytes(32))));

/**
 * KMS as aws-sdk-client-mock plays it: a master key that wraps data keys with AES-256-GCM and the encryption context
 * as AAD, so a Decrypt with another context fails as the real service's InvalidCiphertextException does.
 */
const kms = mockClient(KMSClient);
const master = randomBytes(32);
const contextOf = (input: { EncryptionContext?: Record<string, string> | undefined }) => Buffer.from(JSON.stringify(input.EncryptionContext ?? {}));

beforeEach(() => {
  kms.reset();
  kms.on(GenerateDataKeyCommand).callsFake((input: { KeySpec?: string; EncryptionContext?: Record<string, string> }) => {
    expect(input.KeySpec).toBe('AES_256');
    const plaintext = randomBytes(32);
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', master, iv).setAAD(contextOf(input));
    const wrapped = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return { Plaintext: new Uint8Array(plaintext), CiphertextBlob: new Uint8Array(Buffer.concat([iv, cipher.getAuthTag(), wrapped])) };
  });
  kms.on(DecryptCommand).callsFake((input: { CiphertextBlob: Uint8Array; EncryptionContext?: Record<string, string> }) => {
    const blob = Buffer.from(input.CiphertextBlob);
    const decipher = createDecipheriv('aes-256-gcm', master, blob.subarray(0, 12)).setAAD(contextOf(input));
    decipher.setAuthTag(blob.subarray(12, 28));
    return { Plaintext: new Uint8Array(Buffer.concat([decipher.update(blob.subarray(28)), decipher.final()])) };
  });
});

behavesAsAnEnvelopeCipher('the KMS envelope cipher', () => envelopeCipherWith(kmsDataKeys(new KMSClient({ region: 'eu-west-2' }), 'key-arn')));

describe('the KMS envelope cipher and KMS', () => {
  it('asks for an AES-256 data key of the configured key, bound to the creator by the encryption context', async () => {
    const cipher = envelopeCipherWith(kmsDataKeys(new KMSClient({ region: 'eu-west-2' }), 'arn:aws:kms:eu-west-2:1:key/abc'));
    const sealed = await cipher.encrypt('s', 'creator-1');
    await cipher.decrypt(sealed, 'creator-1');
    expect(kms.commandCalls(GenerateDataKeyCommand)[0]!.args[0].input).toEqual({
      KeyId: 'arn:aws:kms:eu-west-2:1:key/abc',
      KeySpec: 'AES_256',
      EncryptionContext: { creatorId: 'creator-1' },
    });
    expect(kms.commandCalls(DecryptCommand)[0]!.args[0].input).toMatchObject({ EncryptionContext: { creatorId: 'creator-1' } });
  });

  it('fails when KMS answers without a key', async () => {
    kms.on(GenerateDataKeyCommand).resolves({});
    await fails(envelopeCipherWith(kmsDataKeys(new KMSClient({ region: 'eu-west-2' }), 'k')).encrypt('s', 'c'));
  });
});

describe('the configured cipher', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
    resetConfig();
  });

  it('uses the local key file when no KMS key is configured, and what it seals opens after a restart', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'secrets-')), 'secrets.key');
    writeFileSync(file, randomBytes(32));
    delete process.env['SECRETS_KEY_ID'];
    process.env['LOCAL_SECRETS_KEY_FILE'] = file;
    resetConfig();
    const sealed = await envelopeCipher().encrypt('zoom-secret', 'creator-1');
    expect(await envelopeCipher().decrypt(sealed, 'creator-1')).toBe('zoom-secret');
    expect(kms.calls()).toHaveLength(0);
  });

  it('uses KMS when the KMS key is configured', async () => {
    process.env['SECRETS_KEY_ID'] = 'arn:aws:kms:eu-west-2:1:key/abc';
    resetConfig();
    await envelopeCipher().encrypt('zoom-secret', 'creator-1');
    expect(kms.commandCalls(GenerateDataKeyCommand)).toHaveLength(1);
  });

  it('names the missing key when neither is configured', () => {
    delete process.env['SECRETS_KEY_ID'];
    delete process.env['LOCAL_SECRETS_KEY_FILE'];
    resetConfig();
    expect(() => envelopeCipher()).toThrow(/SECRETS_KEY_ID/);
  });

  it('refuses a local key that is not 32 bytes', () => {
    expect(() => localDataKeys(randomBytes(16))).toThrow(/32 bytes/);
  });
});
