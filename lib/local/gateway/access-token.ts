import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';

/**
 * What API Gateway's Cognito JWT authorizer checks, against cognito-local: the signature (JWKS fetched
 * once and cached by jose), the issuer, expiry, an access token, issued to our app client.
 */
export const accessTokenVerifier = (opts: { cognitoEndpoint: string; userPoolId: string; clientId: string }) => {
  const issuer = `${opts.cognitoEndpoint}/${opts.userPoolId}`;
  const jwks = createRemoteJWKSet(new URL(`${issuer}/.well-known/jwks.json`));
  /** The verified payload, or undefined for a missing, malformed, expired or foreign token. */
  return async (authorization: string | undefined): Promise<JWTPayload | undefined> => {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
    if (!match) return undefined;
    try {
      const { payload } = await jwtVerify(match[1]!, jwks, { issuer, algorithms: ['RS256'] });
      if (payload.token_use !== 'access' || payload.client_id !== opts.clientId) return undefined;
      return payload;
    } catch {
      return undefined;
    }
  };
};
