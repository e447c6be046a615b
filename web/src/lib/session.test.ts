import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-error.ts';
import type { AuthEvent } from './auth.ts';
import { EARLY_PROFILE_GLOBAL } from './stored-session.ts';

let emit: (event: AuthEvent) => void = () => undefined;
vi.mock('./auth.ts', () => ({
  isSignedIn: vi.fn(),
  signOutUser: vi.fn(() => Promise.resolve()),
  onAuthEvent: vi.fn((listener: (event: AuthEvent) => void) => {
    emit = listener;
    return () => undefined;
  }),
}));
vi.mock('./session-me.ts', () => ({ fetchMe: vi.fn() }));

const { isSignedIn, signOutUser } = await import('./auth.ts');
const { fetchMe } = await import('./session-me.ts');
const { connectSession, getProfile, profileQueryKey, signOutAndForget } = await import('./session.ts');

const creator = { id: 'u1', email: 'creator@example.com', role: 'creator' as const, createdAt: '2025-01-01T00:00:00.000Z' };
let client: QueryClient;
let disconnect: () => void;

beforeEach(() => {
  vi.clearAllMocks();
  client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  disconnect = connectSession(client);
  vi.mocked(isSignedIn).mockResolvedValue(true);
  vi.mocked(fetchMe).mockResolvedValue(creator);
});
afterEach(() => disconnect());

describe('the session', () => {
  it("adopts the page head's early GET /api/me for the first load only", async () => {
    const early = Promise.resolve(new Response('{}'));
    Object.assign(window, { [EARLY_PROFILE_GLOBAL]: early });

    await expect(getProfile()).resolves.toEqual(creator);
    expect(fetchMe).toHaveBeenLastCalledWith(expect.anything(), early);
    await client.refetchQueries({ queryKey: profileQueryKey });
    expect(fetchMe).toHaveBeenLastCalledWith(expect.anything(), undefined);
  });

  it('loads the profile from GET /api/me once and serves it from the cache', async () => {
    await expect(getProfile()).resolves.toEqual(creator);
    await expect(getProfile()).resolves.toEqual(creator);
    expect(fetchMe).toHaveBeenCalledTimes(1);
  });

  it('is null without calling the API when nobody is signed in', async () => {
    vi.mocked(isSignedIn).mockResolvedValue(false);
    await expect(getProfile()).resolves.toBeNull();
    expect(fetchMe).not.toHaveBeenCalled();
  });

  it('treats tokens the API refuses (401) as signed out and ends the local session', async () => {
    vi.mocked(fetchMe).mockRejectedValue(new ApiError(401, 'UNAUTHENTICATED', 'Invalid token'));
    await expect(getProfile()).resolves.toBeNull();
    expect(signOutUser).toHaveBeenCalledOnce();
  });

  it('treats a disabled account (403 ACCOUNT_DISABLED) as signed out too', async () => {
    vi.mocked(fetchMe).mockRejectedValue(new ApiError(403, 'ACCOUNT_DISABLED', 'This account has been disabled by an administrator.'));
    await expect(getProfile()).resolves.toBeNull();
    expect(signOutUser).toHaveBeenCalledOnce();
  });

  it('logs any other failure and lets the caller show its error state', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.mocked(fetchMe).mockRejectedValue(new ApiError(500, 'INTERNAL', 'boom'));
    await expect(getProfile()).rejects.toThrow('boom');
    expect(log).toHaveBeenCalled();
  });

  it("clears the profile and every cached answer on Amplify's signedOut event", async () => {
    await getProfile();
    client.setQueryData(['courses'], ['of the previous user']);

    emit('signedOut');

    expect(client.getQueryData(profileQueryKey)).toBeNull();
    expect(client.getQueryData(['courses'])).toBeUndefined();
  });

  it('loads the new profile after a signedIn event', async () => {
    vi.mocked(isSignedIn).mockResolvedValue(false);
    await expect(getProfile()).resolves.toBeNull();

    vi.mocked(isSignedIn).mockResolvedValue(true);
    emit('signedIn');

    await expect(getProfile()).resolves.toEqual(creator);
  });

  it('signOutAndForget ends the Cognito session and forgets the profile', async () => {
    await getProfile();
    await signOutAndForget();
    expect(signOutUser).toHaveBeenCalledOnce();
    expect(client.getQueryData(profileQueryKey)).toBeNull();
  });
});
