import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CommentThread } from '@contracts/comments.ts';
import { callsTo, jsonResponse } from '@/test/render.tsx';
import { paintingCourse } from '../test/fixtures.ts';
import { COURSE, renderCourseEditor } from '../test/render-editor.tsx';

// The course editor's Discussions card opened from the dashboard's unanswered questions (issue 35 point 1):
// `?discussion=<lessonId>` opens it on that lesson's threads and brings the card into view.

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const at = '2026-11-20T10:00:00.000Z';
const question: CommentThread = {
  id: 'c-1',
  author: { displayName: 'Ann Lee', role: 'learner' },
  body: 'How wet should the paper be?',
  html: '<p>How wet should the paper be?</p>',
  createdAt: at,
  editedAt: null,
  hidden: false,
  mine: false,
  reports: 0,
  pinned: false,
  deleted: false,
  lastActivityAt: at,
  replies: [],
};
const secondLessonThreads = { [`GET ${COURSE}/lessons/lesson-2/comments`]: () => jsonResponse(200, { items: [question], nextCursor: null }) };
const discussions = () => screen.getByRole('region', { name: 'Discussions' });

describe('CourseEditorScreen: the Discussions card from a link', () => {
  it('opens on the lesson in ?discussion=, with its threads, scrolled into view and focused', async () => {
    const scrolled = vi.spyOn(Element.prototype, 'scrollIntoView');
    const { fetchMock } = renderCourseEditor(() => paintingCourse, secondLessonThreads, { search: '?discussion=lesson-2' });

    expect(await screen.findByText('How wet should the paper be?')).toBeInTheDocument();
    expect(within(discussions()).getByRole('combobox', { name: 'Lesson' })).toHaveTextContent('2. First wash');
    expect(callsTo(fetchMock, 'GET', `${COURSE}/lessons/lesson-1/comments`)).toHaveLength(0);
    expect(scrolled.mock.contexts).toContain(discussions());
    expect(discussions()).toHaveFocus();
  });

  it('opens on the first lesson, where it is, without a lesson in the address', async () => {
    const scrolled = vi.spyOn(Element.prototype, 'scrollIntoView');
    const { fetchMock } = renderCourseEditor(() => paintingCourse, secondLessonThreads);

    const picker = await within(await screen.findByRole('region', { name: 'Discussions' })).findByRole('combobox', { name: 'Lesson' });
    expect(picker).toHaveTextContent('1. Colour theory');
    await waitFor(() => expect(callsTo(fetchMock, 'GET', `${COURSE}/lessons/lesson-1/comments`)).toHaveLength(1));
    expect(scrolled.mock.contexts).not.toContain(discussions());
    expect(discussions()).not.toHaveFocus();
  });

  it('opens on the first lesson when the linked lesson is gone', async () => {
    renderCourseEditor(() => paintingCourse, secondLessonThreads, { search: '?discussion=lesson-deleted' });
    const picker = await within(await screen.findByRole('region', { name: 'Discussions' })).findByRole('combobox', { name: 'Lesson' });
    expect(picker).toHaveTextContent('1. Colour theory');
  });
});
