/**
 * The signing key of certificates and status lists (issue 27 point 3; decision 0030): an asymmetric KMS key in the
 * cloud (`kms:Sign`, `kms:GetPublicKey`: the private key never leaves KMS), the local KMS stand-in locally, both
 * through the same adapter (functions/adapters/kms-signer.ts).
 */
export interface CredentialSigner {
  /** The JWS algorithm its signatures are. */
  readonly alg: 'ES256';
  /** Its public key as a JWK (no `kid`: the platform names it). */
  publicJwk(): Promise<Record<string, unknown>>;
  /** The JWS signature over a signing input (`<header>.<payload>`): for ES256, r || s (64 bytes). */
  sign(signingInput: Uint8Array): Promise<Uint8Array>;
}
