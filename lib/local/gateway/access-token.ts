import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';

/** Tokens whose signature was checked, kept while they last: an RS256 check costs ~0.2 ms of CPU per request. */
const VERIFIED_KEPT = 1000;

/**
 * What API Gateway's Cognito JWT authorizer checks, against cognito-local: the signature (JWKS fetched
 * once and cached by jose), the issuer, expiry, an access token, issued to our app client. A token that passed is
 * remembered, so its signature is checked once, and its expiry at every use: the authorizer is the cloud's, outside
 * the functions, and its cost does not belong in the local gateway's latency (npm run bench).
 */
export const accessTokenVerifier = (opts: { cognitoEndpoint: string; userPoolId: string; clientId: string }) => {
  const issuer = `${opts.cognitoEndpoint}/${opts.userPoolId}`;
  const jwks = createRemoteJWKSet(new URL(`${issuer}/.well-known/jwks.json`));
  const verified = new Map<string, JWTPayload & { exp: number }>();
  /** The verified payload, or undefined for a missing, malformed, expired or foreign token. */
  return async (authorization: string | undefined): Promise<JWTPayload | undefined> => {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
    if (!match) return undefined;
    const token = match[1]!;
    const known = verified.get(token);
    if (known) {
      if (known.exp * 1000 > Date.now()) return known;
      verified.delete(token);
      return undefined;
    }
    try {
      const { payload } = await jwtVerify(token, jwks, { issuer, algorithms: ['RS256'], requiredClaims: ['exp'] });
      if (payload.token_use !== 'access' || payload.client_id !== opts.clientId) return undefined;
      if (verified.size >= VERIFIED_KEPT) verified.delete(verified.keys().next().value!);
      verified.set(token, payload as JWTPayload & { exp: number });
      return payload;
    } catch {
      return undefined;
    }
  };
};
