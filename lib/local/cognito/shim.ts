import { randomUUID } from 'node:crypto';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import type { CustomMessageTriggerEvent } from 'aws-lambda';
import { config } from '#functions/config.ts';
import { triggers } from '#functions/routes.ts';
import { lambdaContext, loadHandler } from '../handlers.ts';
import { closeServer, listen } from '../http-server.ts';
import { policyViolation } from './password-policy.ts';

/** The code cognito-local issues for every confirmation (cognito-local.ts starts it with CODE=123456). */
export const LOCAL_CONFIRMATION_CODE = '123456';

/**
 * A small proxy in front of cognito-local for what the cloud pool does and cognito-local does not:
 * refresh through GetTokensFromRefreshToken and GlobalSignOut/RevokeToken (both used by Amplify v6),
 * the password policy, a disabled account refused at sign-in and refresh (cognito-local records AdminDisableUser
 * but signs the account in anyway; AdminUserGlobalSignOut it does not know), and the password reset email and the
 * email verification code (GetUserAttributeVerificationCode; cognito-local only prints them: here our CustomMessage
 * trigger builds them and SES local receives them, so they show in the mail viewer). VerifyUserAttribute passes
 * through: cognito-local checks the code and sets `email_verified`. Everything else passes through untouched. The browser calls it directly (Amplify), so it
 * answers CORS like cognito-local does.
 */
export const startCognitoShim = async (opts: {
  port: number;
  upstreamPort: number;
  log: (line: string) => void;
  /** The code cognito-local puts in reset emails; default LOCAL_CONFIRMATION_CODE. */
  confirmationCode?: string;
}): Promise<{ url: string; stop(): Promise<void> }> => {
  const pools = poolDirectory(opts.upstreamPort);
  const mailer = codeMailer(pools, opts.confirmationCode ?? LOCAL_CONFIRMATION_CODE, opts.log);
  const server = createServer((req, res) => {
    handle(req, res, opts.upstreamPort, mailer, pools).catch((error: unknown) => {
      opts.log(`[cognito-shim] ${String(error)}`);
      if (!res.headersSent) awsJsonError(res, 500, 'InternalErrorException', 'The local Cognito shim failed.');
      else res.destroy();
    });
  });
  await listen(server, opts.port, 'COGNITO_PORT');
  return { url: `http://127.0.0.1:${opts.port}`, stop: () => closeServer(server) };
};

const corsHeaders = {
  'access-control-allow-origin': '*',
  // Amplify reads the error type from this header when it can see it.
  'access-control-expose-headers': 'x-amzn-errortype, x-amzn-requestid',
};

const handle = async (
  req: IncomingMessage,
  res: ServerResponse,
  upstreamPort: number,
  mailer: CodeMailer,
  pools: PoolDirectory,
): Promise<void> => {
  if (req.method === 'OPTIONS') {
    res.writeHead(204, {
      ...corsHeaders,
      'access-control-allow-methods': 'GET,HEAD,PUT,PATCH,POST,DELETE',
      'access-control-allow-headers': req.headers['access-control-request-headers'] ?? '*',
      'access-control-max-age': '86400',
      'content-length': '0',
    });
    res.end();
    return;
  }
  const body = await readAll(req);
  const target = req.headers['x-amz-target'];
  const operation = typeof target === 'string' ? (target.split('.')[1] ?? '') : '';
  if (req.method !== 'POST' || !operation) return forward(req, res, body, upstreamPort);

  let input: Record<string, unknown>;
  try {
    input = body.length > 0 ? (JSON.parse(body.toString('utf8')) as Record<string, unknown>) : {};
  } catch {
    return forward(req, res, body, upstreamPort);
  }

  if (operation === 'GlobalSignOut' || operation === 'RevokeToken' || operation === 'AdminUserGlobalSignOut') return awsJson(res, 200, {});

  const violation = policyViolation(operation, input);
  if (violation) return awsJsonError(res, 400, 'InvalidPasswordException', violation);

  if (operation === 'GetTokensFromRefreshToken') {
    const answer = await call(upstreamPort, 'InitiateAuth', {
      AuthFlow: 'REFRESH_TOKEN_AUTH',
      ClientId: input.ClientId,
      AuthParameters: { REFRESH_TOKEN: input.RefreshToken },
      ClientMetadata: input.ClientMetadata,
    });
    const json = JSON.parse(answer.body || '{}') as Record<string, unknown>;
    if (answer.status !== 200) return awsJson(res, answer.status, json, errorType(json));
    if (await pools.disabled(String(input.ClientId), tokenUser(json))) return userDisabled(res);
    return awsJson(res, 200, { AuthenticationResult: json.AuthenticationResult });
  }

  if (operation === 'InitiateAuth' && input.AuthFlow === 'REFRESH_TOKEN_AUTH') {
    const answer = await call(upstreamPort, 'InitiateAuth', input);
    const json = JSON.parse(answer.body || '{}') as Record<string, unknown>;
    if (answer.status === 200 && (await pools.disabled(String(input.ClientId), tokenUser(json)))) return userDisabled(res);
    return awsJson(res, answer.status, json, errorType(json));
  }

  if (operation === 'InitiateAuth' && input.AuthFlow === 'USER_PASSWORD_AUTH') {
    const answer = await call(upstreamPort, 'InitiateAuth', input);
    const json = JSON.parse(answer.body || '{}') as Record<string, unknown>;
    const type = errorType(json);
    // The cloud pool prevents user-existence errors: a wrong password and an unknown user read the same.
    // (cognito-local calls a wrong password InvalidPasswordException.)
    if (type === 'NotAuthorizedException' || type === 'UserNotFoundException' || type === 'InvalidPasswordException') {
      return awsJsonError(res, 400, 'NotAuthorizedException', 'Incorrect username or password.');
    }
    // As in Cognito, a disabled account is refused only once its password is right (no hint for a guesser).
    const username = (input.AuthParameters as Record<string, unknown> | undefined)?.['USERNAME'];
    if (answer.status === 200 && (await pools.disabled(String(input.ClientId), username))) return userDisabled(res);
    return awsJson(res, answer.status, json, type);
  }

  if (operation === 'ForgotPassword') {
    const answer = await call(upstreamPort, 'ForgotPassword', input);
    const json = JSON.parse(answer.body || '{}') as Record<string, unknown>;
    // As in Cognito, the mail is on its way when the call answers (tests read it from SES local right after).
    if (answer.status === 200) {
      await mailer({ clientId: String(input.ClientId), username: input.Username, triggerSource: 'CustomMessage_ForgotPassword', clientMetadata: input.ClientMetadata });
    }
    return awsJson(res, answer.status, json, errorType(json));
  }

  if (operation === 'GetUserAttributeVerificationCode') {
    const answer = await call(upstreamPort, 'GetUserAttributeVerificationCode', input);
    const json = JSON.parse(answer.body || '{}') as Record<string, unknown>;
    if (answer.status !== 200) return awsJson(res, answer.status, json, errorType(json));
    const claims = tokenClaims(input.AccessToken);
    // As Cognito: the code is on its way by email when the call answers, and the answer says where it went.
    await mailer({ clientId: String(claims?.client_id), username: claims?.sub, triggerSource: 'CustomMessage_VerifyUserAttribute', clientMetadata: input.ClientMetadata });
    return awsJson(res, 200, { CodeDeliveryDetails: { AttributeName: 'email', DeliveryMedium: 'EMAIL', Destination: 'email' } });
  }

  return forward(req, res, body, upstreamPort);
};

type CodeMailer = (input: { clientId: string; username: unknown; triggerSource: 'CustomMessage_ForgotPassword' | 'CustomMessage_VerifyUserAttribute'; clientMetadata: unknown }) => Promise<void>;

interface PoolDirectory {
  /** One admin call to cognito-local: its JSON answer, or an error naming the status. */
  upstream(operation: string, input: unknown): Promise<Record<string, unknown>>;
  /** The pool an app client belongs to (looked up once per client). */
  poolOf(clientId: string): Promise<string>;
  /** Whether the account (username, email alias or sub) is disabled; false for an unknown one. */
  disabled(clientId: string, username: unknown): Promise<boolean>;
}

const poolDirectory = (upstreamPort: number): PoolDirectory => {
  const poolOfClient = new Map<string, string>();
  const upstream = async (operation: string, input: unknown): Promise<Record<string, unknown>> => {
    const answer = await call(upstreamPort, operation, input);
    if (answer.status !== 200) throw new Error(`${operation} answered ${answer.status}: ${answer.body}`);
    return JSON.parse(answer.body || '{}') as Record<string, unknown>;
  };
  const poolOf = async (clientId: string): Promise<string> => {
    const known = poolOfClient.get(clientId);
    if (known) return known;
    const { UserPools = [] } = (await upstream('ListUserPools', { MaxResults: 60 })) as { UserPools?: { Id: string }[] };
    for (const pool of UserPools) {
      const { UserPoolClients = [] } = (await upstream('ListUserPoolClients', { UserPoolId: pool.Id, MaxResults: 60 })) as {
        UserPoolClients?: { ClientId: string }[];
      };
      for (const client of UserPoolClients) poolOfClient.set(client.ClientId, pool.Id);
    }
    const found = poolOfClient.get(clientId);
    if (!found) throw new Error(`no user pool has the client ${clientId}`);
    return found;
  };
  const disabled = async (clientId: string, username: unknown): Promise<boolean> => {
    if (typeof username !== 'string' || username === '') return false;
    const answer = await call(upstreamPort, 'AdminGetUser', { UserPoolId: await poolOf(clientId), Username: username });
    return answer.status === 200 && (JSON.parse(answer.body || '{}') as { Enabled?: boolean }).Enabled === false;
  };
  return { upstream, poolOf, disabled };
};

/** A token's claims, unverified (cognito-local checks the token it is given; the shim only reads whose it is). */
const tokenClaims = (token: unknown): { sub?: string; client_id?: string } | undefined => {
  const payload = typeof token === 'string' ? token.split('.')[1] : undefined;
  if (!payload) return undefined;
  try {
    return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { sub?: string; client_id?: string };
  } catch {
    return undefined;
  }
};

/** The `sub` of the access token in a sign-in answer (who a refresh was for). */
const tokenUser = (json: Record<string, unknown>): string | undefined => {
  const sub = tokenClaims((json.AuthenticationResult as { AccessToken?: string } | undefined)?.AccessToken)?.sub;
  return typeof sub === 'string' ? sub : undefined;
};

/** Cognito's answer to a disabled account's sign-in or refresh. */
const userDisabled = (res: ServerResponse) => awsJsonError(res, 400, 'NotAuthorizedException', 'User is disabled.');

/**
 * Sends a code email as the cloud does (the password reset, the email verification): the pool's CustomMessage trigger
 * (the same handler, loaded like the trigger bridge loads it) builds the message around Cognito's `{####}`, the code
 * replaces it, and the mail goes to SES local with the official SDK. A failure is logged, never turned into an error
 * of the call that asked for the code.
 */
const codeMailer = ({ upstream, poolOf }: PoolDirectory, code: string, log: (line: string) => void): CodeMailer => {
  const what = { CustomMessage_ForgotPassword: 'password reset email', CustomMessage_VerifyUserAttribute: 'email verification code' } as const;
  return async (input) => {
    try {
      const { clientId } = input;
      const userPoolId = await poolOf(clientId);
      const user = (await upstream('AdminGetUser', { UserPoolId: userPoolId, Username: input.username })) as {
        Username: string;
        UserAttributes?: { Name: string; Value: string }[];
      };
      const userAttributes = Object.fromEntries((user.UserAttributes ?? []).map((a) => [a.Name, a.Value]));
      const email = userAttributes['email'];
      if (!email) throw new Error(`${user.Username} has no email`);

      const event = {
        version: '1',
        region: config().AWS_REGION,
        userPoolId,
        userName: user.Username,
        triggerSource: input.triggerSource,
        callerContext: { awsSdkVersion: 'local', clientId },
        request: {
          userAttributes,
          codeParameter: '{####}',
          linkParameter: '{##Click Here##}',
          usernameParameter: null,
          clientMetadata: input.clientMetadata ?? {},
        },
        response: { smsMessage: null, emailMessage: null, emailSubject: null },
      } as unknown as CustomMessageTriggerEvent;
      const handler = await loadHandler(triggers.customMessage.handler);
      const out = (await handler(event, lambdaContext(triggers.customMessage.name, 5000))) as CustomMessageTriggerEvent;
      // Cognito's default when the trigger leaves the message alone.
      const subject = (out.response.emailSubject ?? 'Your verification code').replaceAll('{####}', code);
      const html = (out.response.emailMessage ?? 'Your code is {####}').replaceAll('{####}', code);

      const { SES_ENDPOINT, MAIL_FROM, AWS_REGION } = config();
      if (!SES_ENDPOINT) throw new Error('SES_ENDPOINT is not set');
      const ses = new SESv2Client({
        endpoint: SES_ENDPOINT,
        region: AWS_REGION,
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
        maxAttempts: 1,
      });
      try {
        await ses.send(
          new SendEmailCommand({
            FromEmailAddress: MAIL_FROM,
            Destination: { ToAddresses: [email] },
            Content: { Simple: { Subject: { Data: subject }, Body: { Html: { Data: html } } } },
          }),
        );
      } finally {
        ses.destroy();
      }
      log(`[cognito-shim] ${what[input.triggerSource]} sent to ${email}`);
    } catch (error) {
      log(`[cognito-shim] ${what[input.triggerSource]} not sent: ${(error as Error)?.message ?? String(error)}`);
    }
  };
};

const errorType = (json: Record<string, unknown>) => (typeof json.__type === 'string' ? json.__type : undefined);

const readAll = (req: IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });

/** Passes the request to cognito-local as received and streams its answer back. */
const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer, upstreamPort: number): Promise<void> =>
  new Promise((resolve, reject) => {
    const upstream = request(
      {
        host: '127.0.0.1',
        port: upstreamPort,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: `127.0.0.1:${upstreamPort}`, 'content-length': String(body.length) },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        answer.on('end', () => resolve());
        answer.on('error', reject);
      },
    );
    upstream.on('error', reject);
    upstream.end(body);
  });

/** One JSON call to cognito-local (used to map GetTokensFromRefreshToken onto InitiateAuth). */
const call = (upstreamPort: number, operation: string, input: unknown): Promise<{ status: number; body: string }> =>
  new Promise((resolve, reject) => {
    const payload = Buffer.from(JSON.stringify(input));
    const upstream = request(
      {
        host: '127.0.0.1',
        port: upstreamPort,
        method: 'POST',
        path: '/',
        headers: {
          'content-type': 'application/x-amz-json-1.1',
          'x-amz-target': `AWSCognitoIdentityProviderService.${operation}`,
          'content-length': String(payload.length),
        },
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (c: Buffer) => chunks.push(c));
        answer.on('end', () => resolve({ status: answer.statusCode ?? 502, body: Buffer.concat(chunks).toString('utf8') }));
        answer.on('error', reject);
      },
    );
    upstream.on('error', reject);
    upstream.end(payload);
  });

const awsJson = (res: ServerResponse, status: number, body: unknown, type?: string) => {
  const payload = Buffer.from(JSON.stringify(body));
  res.writeHead(status, {
    ...corsHeaders,
    'content-type': 'application/x-amz-json-1.1',
    'content-length': String(payload.length),
    'x-amzn-requestid': randomUUID(),
    ...(type ? { 'x-amzn-errortype': type } : {}),
  });
  res.end(payload);
};

/** Cognito's JSON error shape: `__type` in the body and the `x-amzn-errortype` header. */
const awsJsonError = (res: ServerResponse, status: number, type: string, message: string) =>
  awsJson(res, status, { __type: type, message }, type);
