import { createHash, createPublicKey } from 'node:crypto';
import { GetPublicKeyCommand, type KMSClient, SignCommand } from '@aws-sdk/client-kms';
import { kmsClient } from '#adapters/envelope-cipher.ts';
import { required } from '#functions/config.ts';
import type { CredentialSigner } from '#core/certificates/ports.ts';

/**
 * Certificates signed by an asymmetric KMS key (ECC_NIST_P256, SIGN_VERIFY; decision 0030): the function may only
 * `kms:Sign` and `kms:GetPublicKey`; the private key never leaves KMS. ES256: the SHA-256 digest of the JWS signing
 * input is signed (`MessageType: DIGEST`, so a credential or status list of any size can be signed: KMS takes at most
 * 4,096 bytes of a raw message), and KMS's DER signature becomes JWS's r || s. Locally the same client reaches the KMS
 * stand-in (lib/local/kms/).
 */

/** A DER ECDSA signature (SEQUENCE { INTEGER r, INTEGER s }) as JWS carries it: r || s, each `size` bytes. */
export const derToJose = (der: Uint8Array, size = 32): Uint8Array => {
  const bytes = Buffer.from(der);
  let at = 2;
  if (bytes[0] !== 0x30) throw new Error('KMS answered a signature that is not DER.');
  if (bytes[1]! & 0x80) at += bytes[1]! & 0x7f;
  const integer = () => {
    if (bytes[at] !== 0x02) throw new Error('KMS answered a signature that is not DER.');
    const length = bytes[at + 1]!;
    const value = bytes.subarray(at + 2, at + 2 + length);
    at += 2 + length;
    const trimmed = value.subarray(Math.max(0, value.length - size));
    return Buffer.concat([Buffer.alloc(size - trimmed.length), trimmed]);
  };
  return Buffer.concat([integer(), integer()]);
};

export const kmsSignerWith = (client: KMSClient, keyId: string): CredentialSigner => {
  let publicJwk: Promise<Record<string, unknown>> | undefined;
  return {
    alg: 'ES256',
    publicJwk: () =>
      (publicJwk ??= client.send(new GetPublicKeyCommand({ KeyId: keyId })).then((out) => {
        if (!out.PublicKey) throw new Error('KMS GetPublicKey answered without a key.');
        const { kty, crv, x, y } = createPublicKey({ key: Buffer.from(out.PublicKey), format: 'der', type: 'spki' }).export({ format: 'jwk' });
        return { kty, crv, x, y };
      })).catch((error: unknown) => {
        publicJwk = undefined;
        throw error;
      }),
    async sign(signingInput) {
      const out = await client.send(
        new SignCommand({ KeyId: keyId, Message: createHash('sha256').update(signingInput).digest(), MessageType: 'DIGEST', SigningAlgorithm: 'ECDSA_SHA_256' }),
      );
      if (!out.Signature) throw new Error('KMS Sign answered without a signature.');
      return derToJose(out.Signature);
    },
  };
};

let signer: CredentialSigner | undefined;

/** The certificate signer of CERTIFICATE_KEY_ID (the KMS key in the cloud, the stand-in's locally). */
export const kmsSigner = (): CredentialSigner => (signer ??= kmsSignerWith(kmsClient(), required('CERTIFICATE_KEY_ID')));
