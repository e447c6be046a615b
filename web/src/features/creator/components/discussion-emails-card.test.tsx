import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callsTo, errorResponse, fakeApi, jsonResponse, renderWithProviders } from '@/test/render.tsx';
import { toast } from '@/components/ui/toaster.tsx';
import { spyOnToasts } from '@/test/toasts.ts';
import { DiscussionEmailsCard, discussionEmailsMessages as m } from './discussion-emails-card.tsx';

// The creator's daily digest of comments, on or off from their profile (issue 35: the digest can be stopped alone).

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));
spyOnToasts();
afterEach(() => vi.unstubAllGlobals());

const PATH = '/api/creator/discussion-emails';

describe('DiscussionEmailsCard', () => {
  it('shows the digest on, and turns it off at once with one PUT', async () => {
    const api = fakeApi({ [`GET ${PATH}`]: () => jsonResponse(200, { commentDigest: true }), [`PUT ${PATH}`]: () => jsonResponse(200, { commentDigest: false }) });
    const { user } = renderWithProviders(<DiscussionEmailsCard />);
    expect(screen.getByRole('status')).toHaveTextContent(m.loading);
    const digest = await screen.findByRole('switch', { name: m.digest });
    expect(digest).toBeChecked();
    expect(digest).toHaveAccessibleDescription(m.digestHint);

    await user.click(digest);
    expect(digest).not.toBeChecked();
    await vi.waitFor(() => expect(callsTo(api, 'PUT', PATH).map((c) => c.body)).toEqual([{ commentDigest: false }]));
  });

  it('puts the switch back and says why when the choice cannot be saved', async () => {
    fakeApi({ [`GET ${PATH}`]: () => jsonResponse(200, { commentDigest: false }), [`PUT ${PATH}`]: () => errorResponse(503, 'SERVICE_UNAVAILABLE', 'A service we depend on did not answer in time.') });
    const { user } = renderWithProviders(<DiscussionEmailsCard />);
    const digest = await screen.findByRole('switch', { name: m.digest });
    expect(digest).not.toBeChecked();
    await user.click(digest);
    await vi.waitFor(() => expect(digest).not.toBeChecked());
    await vi.waitFor(() => expect(toast.error).toHaveBeenCalledWith('Error', expect.objectContaining({ description: 'A service we depend on did not answer in time.' })));
  });

  it("offers 'Try again' when the choice cannot be loaded", async () => {
    let fail = true;
    fakeApi({ [`GET ${PATH}`]: () => (fail ? errorResponse(500, 'INTERNAL', 'boom') : jsonResponse(200, { commentDigest: true })) });
    const { user } = renderWithProviders(<DiscussionEmailsCard />);
    expect(await screen.findByText(m.loadFailed)).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('switch', { name: m.digest })).toBeChecked();
  });
});
