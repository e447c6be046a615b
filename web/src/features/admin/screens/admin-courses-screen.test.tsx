import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AdminCourse } from '@contracts/admin-courses.ts';
import { callsTo, errorResponse, fakeApi, jsonResponse, renderWithProviders } from '@/test/render.tsx';
import { AdminCoursesScreen } from './admin-courses-screen.tsx';

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const course = (n: number, over: Partial<AdminCourse> = {}): AdminCourse => ({
  id: `c${n}`,
  title: `Course ${n}`,
  status: 'draft',
  creatorId: `u${n}`,
  creatorEmail: `creator${n}@example.com`,
  lessonCount: n,
  enrolledCount: 10 * n,
  priceAmount: 0,
  seatPriceAmount: 0,
  createdAt: `2026-11-${String(20 - n).padStart(2, '0')}T10:00:00.000Z`,
  updatedAt: `2026-11-${String(20 - n).padStart(2, '0')}T10:00:00.000Z`,
  ...over,
});

// jsdom applies no CSS: a row holds its wide columns and the folded line a phone shows alike.
const rows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);

describe('AdminCoursesScreen', () => {
  it("lists every creator's courses with creator, status and counts, and loads more", async () => {
    const api = fakeApi({
      'GET /api/admin/courses': () => jsonResponse(200, { items: [course(1, { status: 'published' }), course(2, { creatorEmail: null })], nextCursor: 'next-1' }),
      'GET /api/admin/courses?cursor=next-1': () => jsonResponse(200, { items: [course(3)], nextCursor: null }),
    });
    renderWithProviders(<AdminCoursesScreen />);
    expect(await screen.findByRole('status')).toHaveTextContent('Loading courses...');
    await screen.findByText('Course 1');
    expect(screen.getByRole('region', { name: 'Courses' })).toBeInTheDocument();
    const first = rows()[0]!;
    expect(within(first).getAllByText('creator1@example.com')).not.toHaveLength(0);
    expect(within(first).getAllByText('Published')).not.toHaveLength(0);
    expect(within(first).getByText('10')).toBeInTheDocument();
    expect(within(first).getByText('19 Nov 2026')).toBeInTheDocument();
    expect(within(rows()[1]!).getAllByText('Creator account removed')).not.toHaveLength(0);
    expect(within(rows()[1]!).getAllByText('Draft')).not.toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await screen.findByText('Course 3');
    expect(rows()).toHaveLength(3);
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(callsTo(api, 'GET', '/api/admin/courses?cursor=next-1')).toHaveLength(1);
  });

  it('says when there are no courses, and offers to retry a failed load', async () => {
    let fail = true;
    fakeApi({ 'GET /api/admin/courses': () => (fail ? errorResponse(500, 'INTERNAL', 'boom') : jsonResponse(200, { items: [], nextCursor: null })) });
    renderWithProviders(<AdminCoursesScreen />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load courses');
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No courses yet')).toBeInTheDocument();
  });
});
