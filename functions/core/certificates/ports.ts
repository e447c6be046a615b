/**
 * The ports only the use cases of core/certificates use (docs/decisions/0029-rooms-match-the-domains.md). Adapters
 * in functions/data and functions/adapters implement them; the ports several domains share are in core/ports.ts.
 */

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

/** A learner's profile: the name their certificates carry (empty when none). */
export interface StoredLearnerProfile {
  learnerId: string;
  certificateName: string;
  updatedAt: string;
  /** Their certificates wait to be re-issued with this name. */
  renaming: boolean;
}

export interface LearnerProfileRepository {
  get(learnerId: string): Promise<StoredLearnerProfile | undefined>;
  /** Saved whole; `rename` marks their certificates due for re-issue with the name (the issuing job's work). */
  save(input: { learnerId: string; certificateName: string; updatedAt: string; rename: boolean }): Promise<StoredLearnerProfile>;
  /** Profiles whose certificates wait to be re-issued, oldest first. */
  renamesDue(limit: number): Promise<StoredLearnerProfile[]>;
  /** Re-issued: no longer due, unless the name was saved again since `updatedAt` (then the next run takes it). */
  clearRename(learnerId: string, updatedAt: string): Promise<void>;
}
