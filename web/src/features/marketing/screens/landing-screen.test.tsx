import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { LandingScreen } from './landing-screen.tsx';

vi.mock('@/lib/auth.ts', () => ({ isSignedIn: vi.fn(() => Promise.resolve(false)) }));
vi.mock('@/lib/session.ts', () => ({ getProfile: vi.fn(() => Promise.resolve(null)) }));

function renderLanding() {
  const router = createMemoryRouter([{ path: '/', element: <LandingScreen /> }]);
  render(
    <QueryClientProvider client={new QueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

describe('LandingScreen', () => {
  it('has a top bar with the section anchors, Sign In and Get Started', () => {
    renderLanding();
    const banner = screen.getByRole('banner');
    const nav = within(banner).getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Features' })).toHaveAttribute('href', '#features');
    expect(within(nav).getByRole('link', { name: 'Pricing' })).toHaveAttribute('href', '#pricing');
    expect(within(nav).getByRole('link', { name: 'Reviews' })).toHaveAttribute('href', '#reviews');
    expect(within(banner).getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/auth/login');
    expect(within(banner).getByRole('link', { name: 'Get Started' })).toHaveAttribute('href', '/auth/signup');
  });

  it('puts hero, features, testimonials, pricing, FAQ and the closing call to action in that order, then the footer', () => {
    renderLanding();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Create. License. Grow.');
    const headings = screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.closest('section')?.id);
    expect(headings).toEqual(['features', 'reviews', 'pricing', 'faq', 'start']);
    expect(screen.getByRole('heading', { level: 3, name: 'For creators' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 3, name: 'For businesses' })).toBeInTheDocument();
    expect(document.querySelectorAll('#reviews figure')).toHaveLength(3);
    expect(screen.getByRole('main').nextElementSibling).toBe(screen.getByRole('contentinfo'));
  });

  it("states the spec's claims: 99.9% uptime, 100% of earnings kept, coupons, affiliates and sales tracking", () => {
    renderLanding();
    const main = screen.getByRole('main');
    expect(main).toHaveTextContent('99.9% uptime');
    expect(main).toHaveTextContent('You keep 100% of your earnings.');
    expect(main).toHaveTextContent('Coupons, affiliates and sales tracking');
  });

  it('offers a skip link to the main content first', () => {
    renderLanding();
    const firstLink = screen.getAllByRole('link')[0];
    expect(firstLink).toHaveTextContent('Skip to main content');
    expect(firstLink).toHaveAttribute('href', '#main');
    expect(screen.getByRole('main')).toHaveAttribute('id', 'main');
  });
});
