import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { cognitoDirectory } from '#adapters/cognito-directory.ts';
import { ConflictError } from '#core/errors.ts';
import { counters } from './billing-support.ts';
import { firstSignIn } from './mail-support.ts';
import { api, dynamo, outputs, signIn, signUp, uniqueEmail, useLocalCloudEnv } from './support.ts';

const readItem = async (pk: string, sk: string) =>
  (await dynamo().send(new GetCommand({ TableName: outputs().TableName, Key: { pk, sk } }))).Item;

describe('self sign-up against the local Cognito', () => {
  it('makes a creator: the trigger wrote the profile, and GET /api/me through the gateway says creator', async () => {
    const email = uniqueEmail('creator');
    const before = await counters();
    const { UserSub } = await signUp(email, 'Sup3rSecret', { role: 'creator' });
    const token = await signIn(email, 'Sup3rSecret');
    const me = await api('GET', '/api/me', { token });
    expect(me).toEqual({ status: 200, body: { id: UserSub, email, role: 'creator', createdAt: expect.any(String) } });
    const after = await counters();
    expect(after['users_creator']).toBe((before['users_creator'] ?? 0) + 1);
    expect(after['usersTotal']).toBe((before['usersTotal'] ?? 0) + 1);
  });

  it('refuses a sign-up asking for the admin role, and no account or profile appears', async () => {
    const email = uniqueEmail('would-be-admin');
    await expect(signUp(email, 'Sup3rSecret', { role: 'admin' })).rejects.toThrow(/Only creator accounts can sign up/);
    await expect(signIn(email, 'Sup3rSecret')).rejects.toThrow();
    expect(await readItem(`EMAIL#${email}`, 'EMAIL')).toBeUndefined();
  });

  for (const [why, password] of [
    ['too short', 'Ab1'],
    ['without a digit', 'NoDigitsHere'],
    ['without an upper-case letter', 'lowercase123'],
    ['without a lower-case letter', 'UPPERCASE123'],
  ]) {
    it(`refuses a weak password (${why})`, async () => {
      await expect(signUp(uniqueEmail('weak'), password!)).rejects.toMatchObject({ name: 'InvalidPasswordException' });
    });
  }

  it('answers a wrong password and an unknown user alike, as the cloud pool does', async () => {
    const email = uniqueEmail('wrong-password');
    await signUp(email, 'Sup3rSecret');
    const refusal = { name: 'NotAuthorizedException', message: 'Incorrect username or password.' };
    await expect(signIn(email, 'Wrong-Passw0rd')).rejects.toMatchObject(refusal);
    await expect(signIn(uniqueEmail('nobody'), 'Sup3rSecret')).rejects.toMatchObject(refusal);
  });

  it('refuses the same email twice', async () => {
    const email = uniqueEmail('twice');
    await signUp(email, 'Sup3rSecret');
    await expect(signUp(email, 'Sup3rSecret')).rejects.toMatchObject({ name: 'UsernameExistsException' });
  });
});

describe('the gateway authenticates', () => {
  it('answers 401 with the contract body without a token', async () => {
    expect(await api('GET', '/api/me')).toEqual({ status: 401, body: { error: { code: 'UNAUTHENTICATED', message: expect.any(String) } } });
  });

  it('answers 401 for a forged token', async () => {
    const forged = ['eyJhbGciOiJSUzI1NiJ9', Buffer.from('{"sub":"x","cognito:groups":["admin"]}').toString('base64url'), 'c2ln'].join('.');
    expect((await api('GET', '/api/me', { token: forged })).status).toBe(401);
  });

  it('serves the public health check without a token', async () => {
    expect(await api('GET', '/api/health')).toEqual({ status: 200, body: { status: 'ok' } });
  });

  it('lets the seeded admin in as an admin', async () => {
    const token = await signIn(outputs().AdminEmail, outputs().AdminPassword);
    expect((await api('GET', '/api/me', { token })).body).toMatchObject({ email: outputs().AdminEmail, role: 'admin' });
  });

  it('answers the contract 404 for an unknown API path', async () => {
    const res = await api('GET', '/api/does-not-exist');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });
});

describe('an invitation left unfinished (the directory adapter on cognito-local)', () => {
  it('is taken over by the next try with its new temporary password; an account in use never is', async () => {
    useLocalCloudEnv();
    const directory = cognitoDirectory();
    const email = uniqueEmail('unfinished');
    const first = await directory.createAccount({ email, temporaryPassword: 'Temp0rary-One!' });
    // The mail or the profile failed: the caller tries again with a new temporary password.
    const again = await directory.createAccount({ email, temporaryPassword: 'Temp0rary-Two!' });
    expect(again).toEqual(first);
    await directory.addToGroup(again.username, 'learner');
    expect(await firstSignIn(email, 'Temp0rary-Two!', 'N3wPassword!')).toEqual(expect.any(String));
    // Now in use (its owner set a password): a new invitation to it is refused.
    await expect(directory.createAccount({ email, temporaryPassword: 'Temp0rary-Three!' })).rejects.toBeInstanceOf(ConflictError);
    const permanent = uniqueEmail('permanent');
    await directory.createAccount({ email: permanent, password: 'Str0ngPassword' });
    await expect(directory.createAccount({ email: permanent, temporaryPassword: 'Temp0rary-Four!' })).rejects.toBeInstanceOf(ConflictError);
  });
});
