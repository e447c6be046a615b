import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { CreatorDashboardHeader } from '@/features/creator/screens/creator-dashboard-screen.tsx';
import { DashboardFrame } from '@/features/dashboard/screens/dashboard-layout.tsx';
import { prerenderDashboardShells } from './dashboard-shell.tsx';

beforeEach(() => {
  vi.stubGlobal('matchMedia', (query: string) => ({ matches: false, media: query, addEventListener() {}, removeEventListener() {} }));
});

describe("the signed-in creator's app shell", () => {
  const [creator] = prerenderDashboardShells();

  it("is the creator's dashboard: the creator's sidebar with Dashboard current, the header and the page heading", () => {
    expect(creator).toMatchObject({ path: '/dashboard/creator', role: 'creator' });
    document.body.innerHTML = creator!.html;

    const navigation = screen.getByRole('navigation', { name: 'Navigation' });
    expect(within(navigation).getByRole('link', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page');
    expect(within(navigation).getByRole('link', { name: 'Landing Page' })).toBeInTheDocument();
    expect(screen.getByTestId('sidebar-role')).toHaveTextContent('Creator');
    expect(screen.getByText('Welcome back!')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Creator Dashboard' })).toBeInTheDocument();
  });

  it('is the markup React renders for that frame and heading, so nothing moves when React takes over', () => {
    const { container } = render(
      <MemoryRouter initialEntries={['/dashboard/creator']}>
        <DashboardFrame role="creator" email="" signOut={<button type="button">Sign Out</button>}>
          <div className="grid gap-6 *:min-w-0">
            <CreatorDashboardHeader />
          </div>
        </DashboardFrame>
      </MemoryRouter>,
    );
    const shell = document.createElement('div');
    shell.innerHTML = creator!.html;

    expect(shell.querySelector('[data-testid="sidebar"]')!.outerHTML).toBe(container.querySelector('[data-testid="sidebar"]')!.outerHTML);
    expect(shell.querySelector('main')!.outerHTML).toBe(container.querySelector('main')!.outerHTML);
  });
});
