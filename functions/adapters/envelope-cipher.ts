import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { DecryptCommand, GenerateDataKeyCommand, KMSClient } from '@aws-sdk/client-kms';
import { awsClientOptions, clientPolicies } from '#adapters/client-policy.ts';
import { traced } from '#adapters/tracer.ts';
import { config } from '#functions/config.ts';
import type { SealedSecret, SecretCipher } from '#core/ports.ts';

/**
 * Envelope encryption of stored secrets. Each secret gets its own 256-bit data key; the secret is sealed with
 * AES-256-GCM under it (the context, the creator id, as additional authenticated data), and only the wrapped data key
 * is kept beside it. In the cloud KMS makes and wraps the data key (GenerateDataKey, the creator id as encryption
 * context, so KMS itself refuses to unwrap it for another creator, and CloudTrail records each unwrap); locally the
 * data key is wrapped with AES-256-GCM under the 32-byte key file, in the same stored format.
 */

/** Unwraps and wraps data keys: KMS in the cloud, the local key file in the local cloud. */
export interface DataKeys {
  generate(context: string): Promise<{ plaintext: Uint8Array; wrapped: Uint8Array }>;
  unwrap(wrapped: Uint8Array, context: string): Promise<Uint8Array>;
}

const IV_BYTES = 12;
const TAG_BYTES = 16;
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const bytes = (text: string) => Buffer.from(text, 'base64');
const aad = (context: string) => Buffer.from(`creator:${context}`, 'utf8');

const seal = (key: Uint8Array, plaintext: Uint8Array, context: string) => {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(aad(context));
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return { iv, ciphertext, tag: cipher.getAuthTag() };
};

const open = (key: Uint8Array, parts: { iv: Uint8Array; ciphertext: Uint8Array; tag: Uint8Array }, context: string): Buffer => {
  const decipher = createDecipheriv('aes-256-gcm', key, parts.iv).setAAD(aad(context));
  decipher.setAuthTag(parts.tag);
  return Buffer.concat([decipher.update(parts.ciphertext), decipher.final()]);
};

/** Data keys from KMS (AES_256), bound to the creator by the encryption context. */
export const kmsDataKeys = (client: KMSClient, keyId: string): DataKeys => ({
  async generate(context) {
    const out = await client.send(new GenerateDataKeyCommand({ KeyId: keyId, KeySpec: 'AES_256', EncryptionContext: { creatorId: context } }));
    if (!out.Plaintext || !out.CiphertextBlob) throw new Error('KMS GenerateDataKey answered without a key.');
    return { plaintext: out.Plaintext, wrapped: out.CiphertextBlob };
  },
  async unwrap(wrapped, context) {
    const out = await client.send(new DecryptCommand({ KeyId: keyId, CiphertextBlob: wrapped, EncryptionContext: { creatorId: context } }));
    if (!out.Plaintext) throw new Error('KMS Decrypt answered without a key.');
    return out.Plaintext;
  },
});

/** Data keys wrapped under a local 32-byte key (iv | tag | wrapped key), the context as AAD as KMS would bind it. */
export const localDataKeys = (masterKey: Uint8Array): DataKeys => {
  if (masterKey.byteLength !== 32) throw new Error('The local secrets key must be 32 bytes.');
  return {
    async generate(context) {
      const plaintext = randomBytes(32);
      const { iv, tag, ciphertext } = seal(masterKey, plaintext, context);
      return { plaintext, wrapped: Buffer.concat([iv, tag, ciphertext]) };
    },
    async unwrap(wrapped, context) {
      const buffer = Buffer.from(wrapped);
      return open(
        masterKey,
        { iv: buffer.subarray(0, IV_BYTES), tag: buffer.subarray(IV_BYTES, IV_BYTES + TAG_BYTES), ciphertext: buffer.subarray(IV_BYTES + TAG_BYTES) },
        context,
      );
    },
  };
};

/** The SecretCipher over any source of data keys. */
export const envelopeCipherWith = (keys: DataKeys): SecretCipher => ({
  async encrypt(plaintext, context) {
    const dataKey = await keys.generate(context);
    try {
      const { iv, tag, ciphertext } = seal(dataKey.plaintext, Buffer.from(plaintext, 'utf8'), context);
      return { ciphertext: b64(ciphertext), iv: b64(iv), tag: b64(tag), encryptedDataKey: b64(dataKey.wrapped) };
    } finally {
      dataKey.plaintext.fill(0);
    }
  },
  async decrypt(sealed: SealedSecret, context) {
    const key = await keys.unwrap(bytes(sealed.encryptedDataKey), context);
    try {
      return open(key, { iv: bytes(sealed.iv), tag: bytes(sealed.tag), ciphertext: bytes(sealed.ciphertext) }, context).toString('utf8');
    } finally {
      key.fill(0);
    }
  },
});

let kms: KMSClient | undefined;

/** The KMS client, made once, with its timeouts and retries (adapters/client-policy.ts): the envelope cipher's and the certificate signer's. */
export const kmsClient = (): KMSClient => {
  if (kms) return kms;
  // KMS_ENDPOINT: the local cloud's KMS stand-in (lib/local/kms/); absent in AWS.
  const { AWS_REGION, KMS_ENDPOINT } = config();
  return (kms = traced(new KMSClient({ region: AWS_REGION, ...(KMS_ENDPOINT ? { endpoint: KMS_ENDPOINT } : {}), ...awsClientOptions(clientPolicies.kms) })));
};

/**
 * The platform's cipher, chosen by configuration: SECRETS_KEY_ID (the KMS key, cloud) or LOCAL_SECRETS_KEY_FILE (the
 * local cloud's key file, lib/local/secrets/generated.ts). Neither set: a configuration error, named.
 */
export const envelopeCipher = (): SecretCipher => {
  const { SECRETS_KEY_ID, LOCAL_SECRETS_KEY_FILE } = config();
  if (SECRETS_KEY_ID) return envelopeCipherWith(kmsDataKeys(kmsClient(), SECRETS_KEY_ID));
  if (LOCAL_SECRETS_KEY_FILE) return envelopeCipherWith(localDataKeys(readFileSync(LOCAL_SECRETS_KEY_FILE)));
  throw new Error('SECRETS_KEY_ID is not set (nor LOCAL_SECRETS_KEY_FILE locally): this function needs the secrets key.');
};
