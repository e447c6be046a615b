import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import { readBody } from '../http-replies.ts';
import { closeServer, listenAt } from '../http-server.ts';
import { signDigest } from './ecdsa.ts';

/**
 * The local AWS KMS, for the asymmetric key certificates are signed with (decision 0030): the KMS JSON protocol
 * (`POST /`, `X-Amz-Target: TrentService.<Operation>`, `application/x-amz-json-1.1`, blobs in base64) as
 * `@aws-sdk/client-kms` sends it, so the same adapter (functions/adapters/kms-signer.ts) runs here and in AWS.
 * - `GetPublicKey {KeyId}` -> `{KeyId, PublicKey (DER SubjectPublicKeyInfo), KeySpec, KeyUsage, SigningAlgorithms}`
 * - `Sign {KeyId, Message, MessageType: RAW|DIGEST, SigningAlgorithm: ECDSA_SHA_256}` -> `{KeyId, Signature (DER),
 *   SigningAlgorithm}`; a RAW message over 4,096 bytes or a digest of another length is a ValidationException, as
 *   in KMS.
 * Any other operation (Decrypt included: this key cannot) is UnsupportedOperationException; an unknown key
 * NotFoundException. Keys (ECC_NIST_P256, SIGN_VERIFY) are kept in `keysFile` so credentials signed before a restart
 * keep verifying. Test control (not KMS's API): `GET /_stand-in/calls`, the calls received, newest last.
 */
export interface KmsStandInOptions {
  port: number;
  host?: string;
  region?: string;
  /** Where the keys persist (PKCS#8 PEM by key id); made with one key on first start. */
  keysFile: string;
}

export interface KmsStandIn {
  url: string;
  /** The ARN of the certificate signing key (the functions' CERTIFICATE_KEY_ID). */
  certificateKeyArn: string;
  calls: { operation: string; keyId: string; status: number }[];
  stop(): Promise<void>;
}

const MAX_RAW_MESSAGE = 4096;

class KmsError extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

const loadKeys = (file: string): Map<string, string> => {
  if (!existsSync(file)) {
    const pem = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    writeFileSync(file, `${JSON.stringify({ [randomUUID()]: pem }, null, 2)}\n`, { mode: 0o600 });
  }
  return new Map(Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>));
};

export const startKmsStandIn = async (options: KmsStandInOptions): Promise<KmsStandIn> => {
  const region = options.region ?? 'eu-west-2';
  const arnOf = (id: string) => `arn:aws:kms:${region}:000000000000:key/${id}`;
  const keys = new Map<string, KeyObject>();
  for (const [id, pem] of loadKeys(options.keysFile)) keys.set(id, createPrivateKey(pem));
  const [firstId] = keys.keys();
  const calls: KmsStandIn['calls'] = [];

  const keyOf = (keyId: unknown): { id: string; key: KeyObject } => {
    const id = typeof keyId === 'string' ? keyId.replace(/^arn:aws:kms:[^:]+:\d+:key\//, '') : '';
    const key = keys.get(id);
    if (!key) throw new KmsError('NotFoundException', `Key '${String(keyId)}' does not exist`);
    return { id, key };
  };

  const operations: Record<string, (input: Record<string, unknown>) => Record<string, unknown>> = {
    GetPublicKey: (input) => {
      const { id, key } = keyOf(input['KeyId']);
      return {
        KeyId: arnOf(id),
        PublicKey: createPublicKey(key).export({ format: 'der', type: 'spki' }).toString('base64'),
        KeySpec: 'ECC_NIST_P256',
        KeyUsage: 'SIGN_VERIFY',
        SigningAlgorithms: ['ECDSA_SHA_256'],
      };
    },
    Sign: (input) => {
      const { id, key } = keyOf(input['KeyId']);
      if (input['SigningAlgorithm'] !== 'ECDSA_SHA_256') throw new KmsError('InvalidKeyUsageException', `Key does not support ${String(input['SigningAlgorithm'])}`);
      const message = Buffer.from(String(input['Message'] ?? ''), 'base64');
      const type = input['MessageType'] ?? 'RAW';
      if (message.length === 0 || (type === 'RAW' && message.length > MAX_RAW_MESSAGE)) throw new KmsError('ValidationException', 'Message must be between 1 and 4096 bytes');
      if (type === 'DIGEST' && message.length !== 32) throw new KmsError('ValidationException', 'Digest is invalid length for algorithm ECDSA_SHA_256.');
      const digest = type === 'DIGEST' ? message : createHash('sha256').update(message).digest();
      const d = Buffer.from(key.export({ format: 'jwk' }).d!, 'base64url');
      return { KeyId: arnOf(id), Signature: signDigest(d, digest).toString('base64'), SigningAlgorithm: 'ECDSA_SHA_256' };
    },
  };

  const reply = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/x-amz-json-1.1', 'x-amzn-requestid': randomUUID() });
    res.end(JSON.stringify(body));
  };

  const server = createServer((req, res) => {
    void (async () => {
      if (req.method === 'GET' && req.url === '/_stand-in/calls') return reply(res, 200, calls);
      const operation = String(req.headers['x-amz-target'] ?? '').replace(/^TrentService\./, '');
      let input: Record<string, unknown> = {};
      try {
        input = JSON.parse((await readBody(req)) || '{}') as Record<string, unknown>;
        const run = req.method === 'POST' ? operations[operation] : undefined;
        if (!run) throw new KmsError('UnsupportedOperationException', `The local KMS stand-in does not offer ${operation || 'that'}.`);
        const out = run(input);
        calls.push({ operation, keyId: String(input['KeyId']), status: 200 });
        reply(res, 200, out);
      } catch (error) {
        const type = error instanceof KmsError ? error.type : 'KMSInternalException';
        calls.push({ operation, keyId: String(input['KeyId']), status: type === 'KMSInternalException' ? 500 : 400 });
        reply(res, type === 'KMSInternalException' ? 500 : 400, { __type: type, message: (error as Error).message });
      }
    })();
  });
  const url = await listenAt(server, options.port, options.host ?? '127.0.0.1');
  return { url, certificateKeyArn: arnOf(firstId!), calls, stop: () => closeServer(server) };
};
