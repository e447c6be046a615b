import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callsTo, fakeApi, jsonResponse, renderWithProviders } from '@/test/render.tsx';
import { subscription } from '@/test/fixtures.ts';
import { paintingCourse } from '../test/fixtures.ts';
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
