import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BrowseList } from '@contracts/storefront.ts';
import { fakeApi, jsonResponse, renderWithProviders } from '@/test/render.tsx';
import { LearnerBrowseScreen } from './learner-browse-screen.tsx';

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));

afterEach(() => vi.unstubAllGlobals());

const list: BrowseList = {
  items: [
    { id: 'c-sauce', title: 'Sauces', description: 'The five mother sauces.', priceAmount: 4500, lessonCount: 6, creatorName: 'Jane Cooks', creatorSlug: 'jane-cooks' },
    { id: 'c-bread', title: 'Bread', description: '', priceAmount: 1999, lessonCount: 1, creatorName: 'Course creator', creatorSlug: null },
  ],
};

describe('Browse (learner)', () => {
  it("lists the courses on sale from the learner's creators, each linking to its public page", async () => {
    fakeApi({ 'GET /api/learner/browse': () => jsonResponse(200, list) });
    renderWithProviders(<LearnerBrowseScreen />);

    const links = await screen.findAllByRole('link', { name: /^View course: / });
    expect(links.map((l) => l.getAttribute('href'))).toEqual(['/c/c-sauce', '/c/c-bread']);
    const sauces = links[0]!.closest('li')!;
    expect(within(sauces).getByRole('heading', { name: 'Sauces' })).toBeInTheDocument();
    expect(sauces).toHaveTextContent('by Jane Cooks');
    expect(sauces).toHaveTextContent('6 lessons · £45');
    expect(links[1]!.closest('li')).toHaveTextContent('1 lesson · £19.99');
  });

  it('says so when there is nothing new, pointing to My Courses', async () => {
    fakeApi({ 'GET /api/learner/browse': () => jsonResponse(200, { items: [] }) });
    renderWithProviders(<LearnerBrowseScreen />);
    expect(await screen.findByRole('heading', { name: 'Nothing new to browse yet' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to my courses' })).toHaveAttribute('href', '/dashboard/learner/courses');
  });
});
