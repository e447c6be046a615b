import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { UnansweredQuestion } from '@contracts/comments.ts';
import { errorResponse, fakeApi, jsonResponse, renderWithProviders } from '@/test/render.tsx';
import { UnansweredQuestionsCard } from './unanswered-questions-card.tsx';

// The creator dashboard's "Unanswered questions" (issue 35 point 1): who asked, where, what, how long ago, and the
// way to answer in the course editor at that lesson's discussion; a page at a time.

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));
afterEach(() => vi.unstubAllGlobals());

const PATH = '/api/creator/questions';

const question = (id: string, changes: Partial<UnansweredQuestion> = {}): UnansweredQuestion => ({
  id,
  courseId: 'course-1',
  courseTitle: 'Watercolour for Beginners',
  lessonId: 'lesson-2',
  lessonTitle: 'First wash',
  author: { displayName: 'Ann Lee', role: 'learner' },
  body: 'How **wet** should the paper be before the [first wash](https://example.com/wash)?',
  createdAt: new Date(Date.now() - 3 * 3_600_000).toISOString(),
  replyCount: 0,
  ...changes,
});

const card = () => screen.getByRole('region', { name: 'Unanswered questions' });

describe('UnansweredQuestionsCard', () => {
  it('lists each question: the learner, course and lesson, its text as plain words, how long ago, and Answer to the lesson’s discussion', async () => {
    fakeApi({
      [`GET ${PATH}`]: () =>
        jsonResponse(200, { items: [question('q-1'), question('q-2', { author: { displayName: 'Ben Hall', role: 'learner' }, body: 'x '.repeat(200), replyCount: 2 })], nextCursor: null }),
    });
    renderWithProviders(<UnansweredQuestionsCard />);

    const items = within(await screen.findByRole('list', { name: 'Questions' })).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    const [first, second] = items as [HTMLElement, HTMLElement];
    expect(first).toHaveTextContent('Ann Lee in Watercolour for Beginners · First wash');
    expect(first).toHaveTextContent('How wet should the paper be before the first wash?');
    expect(first).not.toHaveTextContent('**');
    expect(first).not.toHaveTextContent('example.com');
    expect(first).toHaveTextContent('Asked 3 hours ago · No replies yet');
    expect(within(first).getByRole('link', { name: 'Answer Ann Lee in First wash' })).toHaveAttribute('href', '/dashboard/creator/courses/course-1?discussion=lesson-2');
    // A long question shows its start only.
    expect(second.textContent).toContain('…');
    expect(second.textContent!.length).toBeLessThan(300);
    expect(second).toHaveTextContent('2 replies');
    expect(within(card()).queryByRole('button', { name: 'Load more questions' })).not.toBeInTheDocument();
  });

  it('says so when every question is answered', async () => {
    fakeApi({ [`GET ${PATH}`]: () => jsonResponse(200, { items: [], nextCursor: null }) });
    renderWithProviders(<UnansweredQuestionsCard />);
    expect(await within(card()).findByText('No unanswered questions. Nice work.')).toBeInTheDocument();
    expect(within(card()).queryByRole('list')).not.toBeInTheDocument();
  });

  it('loads the next page after the first with its cursor', async () => {
    const fetchMock = fakeApi({
      [`GET ${PATH}`]: () => jsonResponse(200, { items: [question('q-1')], nextCursor: 'page 2' }),
      [`GET ${PATH}?cursor=page%202`]: () => jsonResponse(200, { items: [question('q-2', { author: { displayName: 'Ben Hall', role: 'learner' } })], nextCursor: null }),
    });
    const { user } = renderWithProviders(<UnansweredQuestionsCard />);

    await user.click(await within(card()).findByRole('button', { name: 'Load more questions' }));
    expect(await within(card()).findByText('Ben Hall')).toBeInTheDocument();
    expect(within(card()).getByText('Ann Lee')).toBeInTheDocument();
    expect(within(card()).queryByRole('button', { name: 'Load more questions' })).not.toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('says when the questions could not be loaded, and loads them again', async () => {
    let fail = true;
    fakeApi({ [`GET ${PATH}`]: () => (fail ? errorResponse(500, 'INTERNAL', 'boom') : jsonResponse(200, { items: [question('q-1')], nextCursor: null })) });
    const { user } = renderWithProviders(<UnansweredQuestionsCard />);

    const alert = await within(card()).findByRole('alert');
    expect(alert).toHaveTextContent('Your learners’ questions could not be loaded.');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await within(card()).findByText('Ann Lee')).toBeInTheDocument();
  });

  it('shows a loading placeholder until the first page arrives', () => {
    fakeApi({ [`GET ${PATH}`]: () => new Promise<Response>(() => undefined) });
    renderWithProviders(<UnansweredQuestionsCard />);
    expect(within(card()).getByText('Loading your learners’ questions...')).toBeInTheDocument();
  });
});
