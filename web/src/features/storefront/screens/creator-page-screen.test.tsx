import { screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PublicCreator } from '@contracts/storefront.ts';
import { errorResponse, fakeApi, jsonResponse, renderWithProviders } from '@/test/render.tsx';
import { CreatorPageScreen } from './creator-page-screen.tsx';

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve(undefined)) }));

const creator: PublicCreator = {
  slug: 'jane-cooks',
  displayName: 'Jane Cooks',
  bio: 'Chef and teacher in London.',
  avatarUrl: 'http://files.test/avatars/u1/pic?signed',
  courses: [
    { id: 'c-knife', title: 'Knife skills', description: 'Chop like a chef.', priceAmount: 2900, lessonCount: 3 },
    { id: 'c-free', title: 'Kitchen tour', description: '', priceAmount: 0, lessonCount: 1 },
  ],
  bundles: [],
  memberships: [],
  branding: null,
};

function renderPage(path = '/u/jane-cooks') {
  return renderWithProviders(
    <Routes>
      <Route path="/u/:slug" element={<CreatorPageScreen />} />
    </Routes>,
    { path },
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
  document.title = '';
  for (const meta of document.head.querySelectorAll('meta')) meta.remove();
});

describe("a creator's page (/u/:slug)", () => {
  it('shows the picture, name and bio, and each published course as a card opening its storefront, with its price', async () => {
    fakeApi({ 'GET /api/public/creators/jane-cooks': () => jsonResponse(200, creator) });
    renderPage();

    expect(await screen.findByRole('heading', { level: 1, name: 'Jane Cooks' })).toBeInTheDocument();
    expect(screen.getByText('Chef and teacher in London.')).toBeInTheDocument();
    expect(screen.getByTestId('creator-avatar-image')).toHaveAttribute('src', creator.avatarUrl);
    expect(screen.getByText('2 courses')).toBeInTheDocument();
    const cards = within(screen.getByRole('region', { name: 'Courses' })).getAllByRole('link');
    expect(cards.map((c) => c.getAttribute('href'))).toEqual(['/c/c-knife', '/c/c-free']);
    expect(cards[0]).toHaveTextContent('Knife skills');
    expect(cards[0]).toHaveTextContent('3 lessons');
    expect(cards[0]).toHaveTextContent('£29');
    expect(cards[1]).toHaveTextContent('Not on sale');
    expect(document.title).toBe('Jane Cooks · Course Platform');
    expect(document.head.querySelector('meta[name="description"]')).toHaveAttribute('content', 'Chef and teacher in London.');
    expect(document.head.querySelector('meta[property="og:type"]')).toHaveAttribute('content', 'profile');
  });

  it("lists the creator's memberships and bundles on sale after the courses, each opening its page", async () => {
    fakeApi({
      'GET /api/public/creators/jane-cooks': () =>
        jsonResponse(200, {
          ...creator,
          memberships: [{ id: 'ms-club', title: 'Kitchen club', interval: 'month', priceAmount: 1200, allCourses: true }],
          bundles: [{ id: 'b-basics', title: 'Kitchen basics', priceAmount: 3000, courseCount: 2 }],
        }),
    });
    renderPage();
    const memberships = within(await screen.findByRole('region', { name: 'Memberships' })).getAllByRole('link');
    expect(memberships.map((link) => [link.getAttribute('href'), link.textContent])).toEqual([['/m/ms-club', 'Kitchen clubEvery course, including new ones£12 a month']]);
    const bundles = within(screen.getByRole('region', { name: 'Bundles' })).getAllByRole('link');
    expect(bundles.map((link) => [link.getAttribute('href'), link.textContent])).toEqual([['/b/b-basics', 'Kitchen basics2 courses, one payment£30']]);
  });

  it('shows no memberships or bundles sections when the creator sells none', async () => {
    fakeApi({ 'GET /api/public/creators/jane-cooks': () => jsonResponse(200, creator) });
    renderPage();
    await screen.findByRole('region', { name: 'Courses' });
    expect(screen.queryByRole('region', { name: 'Memberships' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Bundles' })).not.toBeInTheDocument();
  });

  it("is framed by the creator's school when branded: its logo and name link to their page, its colour on the page", async () => {
    const branding = { schoolName: "Jane's Kitchen", primaryColor: '#facc15', onPrimaryColor: '#000000' as const, logoUrl: 'http://files.test/avatars/u1/logos/l1?signed' };
    fakeApi({ 'GET /api/public/creators/jane-cooks': () => jsonResponse(200, { ...creator, branding }) });
    renderPage();
    await screen.findByRole('heading', { level: 1, name: 'Jane Cooks' });
    const header = screen.getByRole('banner');
    expect(within(header).getByRole('link', { name: "Jane's Kitchen" })).toHaveAttribute('href', '/u/jane-cooks');
    expect(within(header).getByTestId('school-logo')).toHaveAttribute('src', branding.logoUrl);
    expect(within(header).queryByText('Course Platform')).not.toBeInTheDocument();
    const frame = header.parentElement!;
    expect(frame.style.getPropertyValue('--color-primary')).toBe('#facc15');
    expect(frame.style.getPropertyValue('--color-primary-foreground')).toBe('#000000');
    expect(screen.getByRole('contentinfo')).toHaveTextContent("Jane's Kitchen · Powered by Course Platform");
  });

  it('shows initials without a picture, and says when nothing is published yet', async () => {
    fakeApi({ 'GET /api/public/creators/jane-cooks': () => jsonResponse(200, { ...creator, avatarUrl: null, courses: [] }) });
    renderPage();
    expect(await screen.findByTestId('creator-avatar-initials')).toHaveTextContent('JC');
    expect(screen.getByText('Jane Cooks has not published a course yet. Come back soon.')).toBeInTheDocument();
  });

  it('says there is no creator at an unknown address', async () => {
    fakeApi({ 'GET /api/public/creators/nobody': () => errorResponse(404, 'NOT_FOUND', 'There is no creator page at this address.') });
    renderPage('/u/nobody');
    expect(await screen.findByRole('heading', { level: 1, name: 'There is no creator here' })).toBeInTheDocument();
    expect(document.title).toBe('Creator not found · Course Platform');
  });
});
