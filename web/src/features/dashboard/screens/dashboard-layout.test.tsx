import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SubscriptionResponse } from '@contracts/billing.ts';
import type { Me } from '@/lib/session.ts';
import { subscription } from '@/test/fixtures.ts';

vi.mock('@/lib/auth.ts', () => ({
  isSignedIn: vi.fn(() => Promise.resolve(true)),
  onAuthEvent: vi.fn(() => () => undefined),
  signOutUser: vi.fn(() => Promise.resolve()),
  // The creator's plan query, once its cache is cleared (a sign-out): no session any more.
  getAccessToken: vi.fn(() => Promise.resolve(null)),
}));
vi.mock('@/components/ui/toaster.tsx', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));

const { signOutUser } = await import('@/lib/auth.ts');
const { toast } = await import('@/components/ui/toaster.tsx');
const { connectSession, profileQueryKey } = await import('@/lib/session.ts');
const { DashboardLayout } = await import('./dashboard-layout.tsx');

let disconnect: () => void = () => undefined;

beforeEach(() => {
  vi.stubGlobal('matchMedia', (query: string) => ({ matches: false, media: query, addEventListener() {}, removeEventListener() {} }));
});
afterEach(() => {
  disconnect();
  vi.unstubAllGlobals();
});

function renderShell(profile: Me, path: string, plan: SubscriptionResponse = subscription('pro')) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  disconnect = connectSession(client);
  client.setQueryData(profileQueryKey, profile);
  // The creator's plan (the sidebar's locks), as GET /api/me/subscription answered it.
  client.setQueryDefaults(['billing', 'subscription'], { staleTime: Infinity });
  client.setQueryData(['billing', 'subscription'], plan);
  const router = createMemoryRouter(
    [
      { path: '/dashboard', Component: DashboardLayout, children: [{ path: '*', element: <p>page</p> }] },
      { path: '/auth/login', element: <p>sign-in page</p> },
    ],
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { client, router };
}

const me = (role: Me['role'] | 'owner'): Me => ({ id: 'u1', email: `${role}@example.com`, role: role as Me['role'], createdAt: '2025-01-01T00:00:00.000Z' });

describe('DashboardLayout', () => {
  it("shows the product name and role, the 'Navigation' menu, 'Welcome back!' and the email", async () => {
    renderShell(me('leader'), '/dashboard/leader/reports');

    const sidebar = await screen.findByRole('complementary', { name: 'Course Platform navigation' });
    expect(within(sidebar).getByTestId('sidebar-title')).toHaveTextContent('Course Platform');
    expect(within(sidebar).getByTestId('sidebar-role')).toHaveTextContent('Group Leader');
    const nav = within(sidebar).getByRole('navigation', { name: 'Navigation' });
    expect(within(nav).getAllByRole('link').map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['Dashboard', '/dashboard/leader'],
      ['My Groups', '/dashboard/leader/groups'],
      ['licenses', '/dashboard/leader/licenses'],
      ['reports', '/dashboard/leader/reports'],
      ['settings', '/dashboard/leader/settings'],
    ]);
    expect(within(nav).getByRole('link', { name: 'reports' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: 'Dashboard' })).not.toHaveAttribute('aria-current');
    expect(screen.getByText('Welcome back!')).toBeInTheDocument();
    expect(screen.getByTestId('user-email')).toHaveTextContent('leader@example.com');
  });

  it("shows a creator's Coupons and Affiliates under 'Marketing', below 'Navigation', current on its page", async () => {
    renderShell(me('creator'), '/dashboard/creator/coupons');

    const sidebar = await screen.findByRole('complementary', { name: 'Course Platform navigation' });
    const marketing = within(sidebar).getByRole('navigation', { name: 'Marketing' });
    expect(within(marketing).getAllByRole('link').map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['Coupons', '/dashboard/creator/coupons'],
      ['Bundles', '/dashboard/creator/bundles'],
      ['Memberships', '/dashboard/creator/memberships'],
      ['Sequences', '/dashboard/creator/sequences'],
      ['Affiliates', '/dashboard/creator/affiliates'],
    ]);
    expect(within(marketing).getByRole('link', { name: 'Coupons' })).toHaveAttribute('aria-current', 'page');
    expect(within(marketing).getByRole('link', { name: 'Affiliates' })).not.toHaveAttribute('aria-current');
    const nav = within(sidebar).getByRole('navigation', { name: 'Navigation' });
    expect(within(nav).queryByRole('link', { name: 'Coupons' })).not.toBeInTheDocument();
    expect(within(nav).getByRole('link', { name: 'Dashboard' })).not.toHaveAttribute('aria-current');
  });

  it('marks the entries of Pro pages with the lock and Pro for a Starter creator, and still links them', async () => {
    renderShell(me('creator'), '/dashboard/creator', subscription('starter'));

    const sidebar = await screen.findByRole('complementary', { name: 'Course Platform navigation' });
    const marketing = within(sidebar).getByRole('navigation', { name: 'Marketing' });
    expect(within(marketing).getByRole('link', { name: 'Affiliates Pro' })).toHaveAttribute('href', '/dashboard/creator/affiliates');
    expect(within(marketing).getByRole('link', { name: 'Memberships Pro' })).toHaveAttribute('href', '/dashboard/creator/memberships');
    expect(within(marketing).getByRole('link', { name: 'Coupons' })).toBeInTheDocument();
    const insights = within(sidebar).getByRole('navigation', { name: 'Insights' });
    expect(within(insights).getByRole('link', { name: 'Reports Pro' })).toHaveAttribute('href', '/dashboard/creator/reports');
    const developers = within(sidebar).getByRole('navigation', { name: 'Developers' });
    expect(within(developers).getByRole('link', { name: 'Developers Pro' })).toHaveAttribute('href', '/dashboard/creator/developers');
    const school = within(sidebar).getByRole('navigation', { name: 'School' });
    expect(within(school).getByRole('link', { name: 'Branding Pro' })).toHaveAttribute('href', '/dashboard/creator/branding');
    expect(within(school).getByRole('link', { name: 'Domains Pro' })).toHaveAttribute('href', '/dashboard/creator/domains');
    // Submissions (issue 35 point 2) sits under 'Courses' and is no Pro page: assignments come with every plan.
    const courses = within(sidebar).getByRole('navigation', { name: 'Courses' });
    expect(within(courses).getByRole('link', { name: 'Submissions' })).toHaveAttribute('href', '/dashboard/creator/submissions');
    expect(within(sidebar).getAllByTestId('pro-lock')).toHaveLength(6);
  });

  it('locks nothing for a Pro creator', async () => {
    renderShell(me('creator'), '/dashboard/creator');

    const sidebar = await screen.findByRole('complementary', { name: 'Course Platform navigation' });
    expect(within(sidebar).getByRole('link', { name: 'Affiliates' })).toBeInTheDocument();
    expect(within(sidebar).getByRole('link', { name: 'Reports' })).toBeInTheDocument();
    expect(within(sidebar).queryByTestId('pro-lock')).not.toBeInTheDocument();
  });

  it("shows no 'Marketing' group to the other roles", async () => {
    renderShell(me('learner'), '/dashboard/learner');
    await screen.findByText('Welcome back!');
    expect(screen.getByRole('navigation', { name: 'Navigation' })).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Marketing' })).not.toBeInTheDocument();
  });

  it('shows no menu for an unknown role', async () => {
    renderShell(me('owner'), '/dashboard/owner');
    await screen.findByText('Welcome back!');
    expect(screen.queryByRole('navigation', { name: 'Navigation' })).not.toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Marketing' })).not.toBeInTheDocument();
  });

  it("'Sign Out' ends the session, forgets the profile, says 'Signed out' and goes to sign-in", async () => {
    const { client, router } = renderShell(me('creator'), '/dashboard/creator');
    client.setQueryData(['courses'], ['cached for this user']);

    await userEvent.click(await screen.findByRole('button', { name: 'Sign Out' }));

    expect(await screen.findByText('sign-in page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth/login');
    expect(router.state.location.search).toBe('');
    expect(signOutUser).toHaveBeenCalledOnce();
    expect(toast.success).toHaveBeenCalledWith('Signed out', { description: 'You have been successfully signed out.' });
    expect(client.getQueryData(profileQueryKey)).toBeNull();
    expect(client.getQueryData(['courses'])).toBeUndefined();
  });

  it('goes to sign-in, remembering the page, when the session ends elsewhere', async () => {
    const { client, router } = renderShell(me('learner'), '/dashboard/learner/certificates');
    await screen.findByText('Welcome back!');

    client.setQueryData(profileQueryKey, null);

    expect(await screen.findByText('sign-in page')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?redirectTo=%2Fdashboard%2Flearner%2Fcertificates');
  });
});
