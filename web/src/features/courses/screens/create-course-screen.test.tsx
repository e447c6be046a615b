import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callsTo, fakeApi, jsonResponse, renderWithProviders } from '@/test/render.tsx';
import { subscription } from '@/test/fixtures.ts';
import { paintingCourse, textLesson } from '../test/fixtures.ts';
import { CreateCourseScreen } from './create-course-screen.tsx';

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));
afterEach(() => vi.unstubAllGlobals());

describe('CreateCourseScreen', () => {
  it('asks for a title before sending anything', async () => {
    const fetchMock = fakeApi({});
    const { user } = renderWithProviders(<CreateCourseScreen />, { path: '/dashboard/creator/create' });

    await user.click(screen.getByRole('button', { name: 'Create course' }));
    expect(screen.getByRole('textbox', { name: /Course title/ })).toHaveAccessibleDescription('Give the course a title.');
    // Nothing sent (the screen only asks which plan the creator is on).
    expect(callsTo(fetchMock, 'POST', '/api/courses')).toEqual([]);
  });

  it('creates the course and opens its editor', async () => {
    const fetchMock = fakeApi({ 'POST /api/courses': () => jsonResponse(201, { ...paintingCourse, lessons: [] }) });
    const { user, router } = renderWithProviders(<CreateCourseScreen />, { path: '/dashboard/creator/create' });

    await user.type(screen.getByRole('textbox', { name: /Course title/ }), '  Watercolour for Beginners ');
    await user.type(screen.getByRole('textbox', { name: 'Description' }), 'Paint with confidence.');
    await user.click(screen.getByRole('button', { name: 'Create course' }));

    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/creator/courses/course-1'));
    expect(callsTo(fetchMock, 'POST', '/api/courses')[0]?.body).toEqual({ title: 'Watercolour for Beginners', description: 'Paint with confidence.' });
  });
});

describe('CreateCourseScreen without a plan (issue 29)', () => {
  it('offers the way to a plan instead of a form the server would refuse', async () => {
    fakeApi({ 'GET /api/me/subscription': () => jsonResponse(200, subscription(null)) });
    renderWithProviders(<CreateCourseScreen />, { path: '/dashboard/creator/create' });

    expect(await screen.findByText('Choose a plan to create courses')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Choose a plan' })).toHaveAttribute('href', '/dashboard/creator');
    expect(screen.queryByRole('button', { name: 'Create course' })).not.toBeInTheDocument();
  });
});

describe('CreateCourseScreen: an outline drafted with AI (issue 36)', () => {
  const prices = { landingPage: 15, courseOutline: 5, lessonDraft: 5, quizFromLesson: 3 };
  const outline = {
    title: 'Sourdough at home',
    description: 'Bake a good loaf.',
    lessons: [
      { title: 'Your starter', summary: 'Make and feed a starter.' },
      { title: 'Shaping', summary: 'Shape a tight boule.' },
      { title: 'Baking', summary: 'Bake with steam.' },
    ],
  };

  it('shows the cost before running, the outline as an unsaved draft, then creates the course with empty text lessons', async () => {
    const fetchMock = fakeApi({
      'GET /api/ai/prices': () => jsonResponse(200, prices),
      'POST /api/ai/course-outline': () => jsonResponse(200, { outline, creditsRemaining: 45 }),
      'POST /api/courses': () => jsonResponse(201, { ...paintingCourse, lessons: [] }),
      'POST /api/courses/course-1/lessons': () => jsonResponse(201, textLesson),
    });
    const { user, router } = renderWithProviders(<CreateCourseScreen />, { path: '/dashboard/creator/create' });

    await user.type(screen.getByRole('textbox', { name: 'What is the course about?' }), 'Sourdough baking');
    await user.click(screen.getByRole('button', { name: 'Draft an outline with AI (5 credits)' }));

    const draft = await screen.findByRole('region', { name: 'Drafted outline' });
    expect(draft).toHaveTextContent('Draft — not saved');
    expect(draft).toHaveTextContent('Shape a tight boule.');
    expect(callsTo(fetchMock, 'POST', '/api/ai/course-outline')[0]?.body).toEqual({ topic: 'Sourdough baking', lessons: 5 });
    expect(callsTo(fetchMock, 'POST', '/api/courses')).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Create course from outline' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/creator/courses/course-1'));
    expect(callsTo(fetchMock, 'POST', '/api/courses')[0]?.body).toEqual({ title: 'Sourdough at home', description: 'Bake a good loaf.' });
    expect(callsTo(fetchMock, 'POST', '/api/courses/course-1/lessons').map((call) => call.body)).toEqual(
      outline.lessons.map((lesson) => ({ title: lesson.title, kind: 'text', body: '' })),
    );
  });

  it('shows the price the server charges (GET /api/ai/prices), not one of its own', async () => {
    fakeApi({ 'GET /api/ai/prices': () => jsonResponse(200, { ...prices, courseOutline: 7 }) });
    renderWithProviders(<CreateCourseScreen />, { path: '/dashboard/creator/create' });
    expect(await screen.findByRole('button', { name: 'Draft an outline with AI (7 credits)' })).toBeEnabled();
    expect(screen.getByText(/Costs 7 credits/)).toBeInTheDocument();
  });

  it('says plainly when credits are short or the draft failed (refunded)', async () => {
    let status = 402;
    fakeApi({ 'GET /api/ai/prices': () => jsonResponse(200, prices), 'POST /api/ai/course-outline': () => jsonResponse(status, { error: { code: status === 402 ? 'INSUFFICIENT_CREDITS' : 'UPSTREAM_ERROR', message: 'x' } }) });
    const { user } = renderWithProviders(<CreateCourseScreen />, { path: '/dashboard/creator/create' });
    await user.type(screen.getByRole('textbox', { name: 'What is the course about?' }), 'Sourdough');
    await user.click(screen.getByRole('button', { name: 'Draft an outline with AI (5 credits)' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('You need 5 AI credits for this.');
    expect(screen.getByRole('link', { name: 'Buy credits' })).toHaveAttribute('href', '/dashboard/creator');
    status = 502;
    await user.click(screen.getByRole('button', { name: 'Draft an outline with AI (5 credits)' }));
    await vi.waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Your credits have been returned'));
  });
});
