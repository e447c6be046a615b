import { InitiateAuthCommand, RespondToAuthChallengeCommand } from '@aws-sdk/client-cognito-identity-provider';
import { expect } from 'vitest';
import { cognito, outputs } from './support.ts';

/** What SES local keeps of a sent message, and the first sign-in of an account invited with a temporary password. */
export interface StoredMail {
  destination: { to: string[] };
  subject: string;
  headers?: { name: string; value: string }[];
  body: { html?: string; text?: string };
  /** Files sent with it: `content` base64, as SES received it. */
  attachments?: { filename?: string; contentType: string; content: string }[];
}

/** Every mail SES local holds for `to`, oldest first. */
export const mailsTo = async (to: string): Promise<StoredMail[]> => {
  const { emails } = (await (await fetch(`${outputs().SesEndpoint}/store`)).json()) as { emails: StoredMail[] };
  return emails.filter((e) => e.destination.to.includes(to));
};

/**
 * Every mail SES local holds for each of `addresses` (oldest first), from one read of its store: a check over hundreds
 * of recipients reads the store once, not once each (the store holds every mail of the run, so each read is big).
 */
export const mailsToEach = async (addresses: readonly string[]): Promise<StoredMail[][]> => {
  const { emails } = (await (await fetch(`${outputs().SesEndpoint}/store`)).json()) as { emails: StoredMail[] };
  const by = new Map<string, StoredMail[]>(addresses.map((to) => [to, []]));
  for (const mail of emails) for (const to of new Set(mail.destination.to)) by.get(to)?.push(mail);
  return addresses.map((to) => by.get(to)!);
};

/** The newest mail SES local holds for `to`. */
export const mailTo = async (to: string): Promise<StoredMail | undefined> => (await mailsTo(to)).at(-1);

/** A stored mail's attachment by file name, its content decoded as text. */
export const attachment = (mail: StoredMail, filename: string): { contentType: string; text: string } | undefined => {
  const found = mail.attachments?.find((a) => a.filename === filename);
  return found && { contentType: found.contentType, text: Buffer.from(found.content, 'base64').toString('utf8') };
};

/** A header of a stored mail, by case-insensitive name. */
export const header = (mail: StoredMail, name: string): string | undefined => mail.headers?.find((h) => h.name.toLowerCase() === name.toLowerCase())?.value;

/** Signs in with the temporary password, answers NEW_PASSWORD_REQUIRED with a password of one's own: the access token. */
export const firstSignIn = async (email: string, temporaryPassword: string, newPassword: string): Promise<string> => {
  const client = cognito();
  const start = await client.send(
    new InitiateAuthCommand({
      ClientId: outputs().UserPoolClientId,
      AuthFlow: 'USER_PASSWORD_AUTH',
      AuthParameters: { USERNAME: email, PASSWORD: temporaryPassword },
    }),
  );
  expect(start.ChallengeName).toBe('NEW_PASSWORD_REQUIRED');
  const done = await client.send(
    new RespondToAuthChallengeCommand({
      ClientId: outputs().UserPoolClientId,
      ChallengeName: 'NEW_PASSWORD_REQUIRED',
      Session: start.Session,
      ChallengeResponses: { USERNAME: email, NEW_PASSWORD: newPassword },
    }),
  );
  const token = done.AuthenticationResult?.AccessToken;
  expect(token, 'an access token after the new password').toBeDefined();
  return token!;
};
