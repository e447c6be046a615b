import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callsTo, errorResponse, fakeApi, jsonResponse, renderWithProviders } from '@/test/render.tsx';
import { subscription } from '@/test/fixtures.ts';
import { paintingSummary } from '../test/fixtures.ts';
import { MyCoursesScreen } from './my-courses-screen.tsx';

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));
afterEach(() => vi.unstubAllGlobals());

describe('MyCoursesScreen', () => {
  it('lists the courses with their status, lessons and learners, each linking to its editor', async () => {
    fakeApi({ 'GET /api/courses': () => jsonResponse(200, { nextCursor: null, items: [paintingSummary, { ...paintingSummary, id: 'course-2', title: 'Sketching', status: 'published', lessonCount: 1, enrolledCount: 0 }] }) });
    renderWithProviders(<MyCoursesScreen />);

    const cards = await screen.findAllByTestId('course-card');
    expect(cards).toHaveLength(2);
    expect(within(cards[0]!).getByText('Draft')).toBeInTheDocument();
    expect(within(cards[0]!).getByText('2 lessons · 1 learner')).toBeInTheDocument();
    expect(within(cards[1]!).getByText('Published')).toBeInTheDocument();
    expect(within(cards[0]!).getByRole('link', { name: 'Watercolour for Beginners' })).toHaveAttribute('href', '/dashboard/creator/courses/course-1');
  });

  it('shows an empty state that leads to Create Course', async () => {
    fakeApi({ 'GET /api/courses': () => jsonResponse(200, { nextCursor: null, items: [] }) });
    renderWithProviders(<MyCoursesScreen />);

    expect(await screen.findByRole('heading', { name: 'No courses yet' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create Course' })).toHaveAttribute('href', '/dashboard/creator/create');
  });

  it('says when the courses could not be loaded, and tries again', async () => {
    let fail = true;
    fakeApi({ 'GET /api/courses': () => (fail ? errorResponse(500, 'INTERNAL', 'boom') : jsonResponse(200, { nextCursor: null, items: [paintingSummary] })) });
    const { user } = renderWithProviders(<MyCoursesScreen />);

    expect(await screen.findByText('Your courses could not be loaded')).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('course-card')).toBeInTheDocument();
  });

  it('deletes a course only after the confirmation', async () => {
    let items = [paintingSummary];
    const fetchMock = fakeApi({
      'GET /api/courses': () => jsonResponse(200, { nextCursor: null, items }),
      'DELETE /api/courses/course-1': () => {
        items = [];
        return new Response(null, { status: 204 });
      },
    });
    const { user } = renderWithProviders(<MyCoursesScreen />);

    await user.click(await screen.findByRole('button', { name: 'Delete Watercolour for Beginners' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete “Watercolour for Beginners”?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(callsTo(fetchMock, 'DELETE', '/api/courses/course-1')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Delete Watercolour for Beginners' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete course' }));
    expect(await screen.findByRole('heading', { name: 'No courses yet' })).toBeInTheDocument();
    expect(callsTo(fetchMock, 'DELETE', '/api/courses/course-1')).toHaveLength(1);
  });

  it("shows the first page and 'Load more' while the server has more: the next page joins below, and the button goes at the end", async () => {
    const fetchMock = fakeApi({
      'GET /api/courses': () => jsonResponse(200, { nextCursor: 'c2', items: [paintingSummary] }),
      'GET /api/courses?cursor=c2': () => jsonResponse(200, { nextCursor: null, items: [{ ...paintingSummary, id: 'course-2', title: 'Sketching' }] }),
    });
    const { user } = renderWithProviders(<MyCoursesScreen />);

    expect(await screen.findAllByTestId('course-card')).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(screen.getAllByTestId('course-card')).toHaveLength(2));
    expect(within(screen.getAllByTestId('course-card')[1]!).getByRole('link', { name: 'Sketching' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(callsTo(fetchMock, 'GET', '/api/courses?cursor=c2')).toHaveLength(1);
  });
});

describe('MyCoursesScreen without a plan (issue 29)', () => {
  it("lists the courses read-only: 'View', no 'Delete', and 'Choose a plan to create courses' to the plan picker", async () => {
    fakeApi({
      'GET /api/courses': () => jsonResponse(200, { nextCursor: null, items: [paintingSummary] }),
      'GET /api/me/subscription': () => jsonResponse(200, subscription(null)),
    });
    renderWithProviders(<MyCoursesScreen />);

    expect(await screen.findByRole('link', { name: 'Choose a plan to create courses' })).toHaveAttribute('href', '/dashboard/creator');
    const card = (await screen.findAllByTestId('course-card'))[0]!;
    expect(within(card).getByRole('link', { name: 'View Watercolour for Beginners' })).toHaveAttribute('href', '/dashboard/creator/courses/course-1');
    expect(within(card).queryByRole('button', { name: /Delete/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Create Course' })).not.toBeInTheDocument();
  });

  it('keeps Edit, Delete and Create Course for a creator on a plan', async () => {
    fakeApi({
      'GET /api/courses': () => jsonResponse(200, { nextCursor: null, items: [paintingSummary] }),
      'GET /api/me/subscription': () => jsonResponse(200, subscription('starter')),
    });
    renderWithProviders(<MyCoursesScreen />);
    const card = (await screen.findAllByTestId('course-card'))[0]!;
    await waitFor(() => expect(within(card).getByRole('button', { name: 'Delete Watercolour for Beginners' })).toBeInTheDocument());
    expect(within(card).getByRole('link', { name: 'Edit Watercolour for Beginners' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create Course' })).toBeInTheDocument();
  });
});
