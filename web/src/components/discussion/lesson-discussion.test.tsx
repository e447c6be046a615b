import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CommentList, CommentThread, CommentView } from '@contracts/comments.ts';
import { callsTo, errorResponse, fakeApi, jsonResponse, renderWithProviders } from '@/test/render.tsx';
import { LessonDiscussion } from './lesson-discussion.tsx';

// The discussion under a lesson (issue 35 point 1): threads with their replies, the learner's and the creator's
// actions, the server's refusal shown, and a comment's HTML as the server rendered it.

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));
afterEach(() => vi.unstubAllGlobals());

const PATH = '/api/courses/course-1/lessons/lesson-1/comments';
const at = '2026-11-20T10:00:00.000Z';

const reply = (id: string, name: string, role: 'creator' | 'learner', html: string, changes: Partial<CommentView> = {}) => ({
  id,
  author: { displayName: name, role },
  body: html.replace(/<[^>]+>/g, ''),
  html,
  createdAt: at,
  editedAt: null,
  hidden: false,
  mine: false,
  reports: 0,
  ...changes,
});

const thread = (id: string, changes: Partial<CommentThread> = {}): CommentThread => ({
  ...reply(id, 'Alex', 'learner', '<p>How wet should the clay be?</p>'),
  pinned: false,
  deleted: false,
  lastActivityAt: at,
  replies: [reply(`${id}-r1`, 'Maya Green', 'creator', '<p>Like <strong>leather</strong>.</p>')],
  ...changes,
});

function renderDiscussion(viewer: 'creator' | 'learner', list: () => CommentList, extra: Parameters<typeof fakeApi>[0] = {}) {
  const fetchMock = fakeApi({ [`GET ${PATH}`]: () => jsonResponse(200, list()), ...extra });
  return { ...renderWithProviders(<LessonDiscussion courseId="course-1" lessonId="lesson-1" viewer={viewer} />), fetchMock };
}

describe('the lesson discussion', () => {
  it('shows threads with their replies, the creator marked, and a comment’s HTML as the server rendered it', async () => {
    renderDiscussion('learner', () => ({ items: [thread('t1', { pinned: true })], nextCursor: null }));
    const article = within(await screen.findByRole('article', { name: 'Comment by Alex' }));
    expect(article.getByText('How wet should the clay be?')).toBeInTheDocument();
    expect(article.getByText('Pinned')).toBeInTheDocument();
    const replies = within(article.getByRole('list', { name: 'Replies' }));
    expect(replies.getByText('Maya Green')).toBeInTheDocument();
    expect(replies.getByText('Creator')).toBeInTheDocument();
    expect(replies.getByText('leather').tagName).toBe('STRONG');
    // A learner reports someone else's comment; they neither hide nor pin.
    expect(article.getAllByRole('button', { name: 'Report' })).toHaveLength(2);
    expect(article.queryByRole('button', { name: 'Hide' })).toBeNull();
    expect(article.queryByRole('button', { name: 'Pin' })).toBeNull();
  });

  it('posts a question and reads the threads again; a refusal (the minute’s cap) is said under the field', async () => {
    const items: CommentThread[] = [];
    let refuse = false;
    const { user, fetchMock } = renderDiscussion('learner', () => ({ items, nextCursor: null }), {
      [`POST ${PATH}`]: () => {
        if (refuse) return errorResponse(429, 'RATE_LIMITED', 'You can post 10 comments a minute. Wait a moment and try again.');
        items.push(thread('t2', { mine: true, replies: [] }));
        return jsonResponse(201, { ...reply('t2', 'Alex', 'learner', '<p>x</p>'), parentId: null });
      },
    });
    expect(await screen.findByText('No comments yet. Start the discussion.')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Ask a question or share a thought'), 'How wet should the clay be?');
    await user.click(screen.getByRole('button', { name: 'Post' }));
    expect(await screen.findByRole('article', { name: 'Comment by Alex' })).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', PATH)[0]!.body).toEqual({ body: 'How wet should the clay be?' });
    expect(screen.getByLabelText('Ask a question or share a thought')).toHaveValue('');
    refuse = true;
    await user.type(screen.getByLabelText('Ask a question or share a thought'), 'Again');
    await user.click(screen.getByRole('button', { name: 'Post' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('You can post 10 comments a minute.');
  });

  it('replies in the thread (one level) with the thread’s id', async () => {
    const { user, fetchMock } = renderDiscussion('learner', () => ({ items: [thread('t1')], nextCursor: null }), {
      [`POST ${PATH}`]: () => jsonResponse(201, { ...reply('r2', 'Sam', 'learner', '<p>Me too</p>', { mine: true }), parentId: 't1' }),
    });
    const article = within(await screen.findByRole('article', { name: 'Comment by Alex' }));
    await user.click(article.getAllByRole('button', { name: 'Reply' })[0]!);
    fireEvent.change(article.getByLabelText('Reply to Alex'), { target: { value: 'Me too' } });
    await user.click(within(article.getByRole('list', { name: 'Replies' })).getByRole('button', { name: 'Reply' }));
    expect(callsTo(fetchMock, 'POST', PATH).at(-1)!.body).toEqual({ body: 'Me too', parentId: 't1' });
  });

  it('a hidden comment shows learners only that it was hidden', async () => {
    renderDiscussion('learner', () => ({ items: [thread('t1', { hidden: true, body: '', html: '', replies: [] })], nextCursor: null }));
    expect(await screen.findByText('This comment was hidden by the creator.')).toBeInTheDocument();
  });

  it('the creator sees a hidden comment’s text, marked, and shows it again', async () => {
    const { user, fetchMock } = renderDiscussion('creator', () => ({ items: [thread('t1', { hidden: true, replies: [] })], nextCursor: null }), {
      'POST /api/comments/t1/hide': () => jsonResponse(200, { ...reply('t1', 'Alex', 'learner', '<p>x</p>'), parentId: null }),
    });
    const article = within(await screen.findByRole('article', { name: 'Comment by Alex' }));
    expect(article.getByText('How wet should the clay be?')).toBeInTheDocument();
    expect(article.getByText('Hidden')).toBeInTheDocument();
    await user.click(article.getByRole('button', { name: 'Show' }));
    expect(callsTo(fetchMock, 'POST', '/api/comments/t1/hide')[0]!.body).toEqual({ hidden: false });
  });

  it('the creator pins, hides and deletes (after asking)', async () => {
    const t = thread('t1', { reports: 2 });
    const { user, fetchMock } = renderDiscussion('creator', () => ({ items: [t], nextCursor: null }), {
      'POST /api/comments/t1/pin': () => jsonResponse(200, { ...reply('t1', 'Alex', 'learner', '<p>x</p>'), parentId: null }),
      'POST /api/comments/t1/hide': () => jsonResponse(200, { ...reply('t1', 'Alex', 'learner', '<p>x</p>', { hidden: true }), parentId: null }),
      'DELETE /api/comments/t1': () => new Response(null, { status: 204 }),
    });
    const article = within(await screen.findByRole('article', { name: 'Comment by Alex' }));
    expect(article.getByText('Reported 2 times')).toBeInTheDocument();
    await user.click(article.getByRole('button', { name: 'Pin' }));
    expect(callsTo(fetchMock, 'POST', '/api/comments/t1/pin')[0]!.body).toEqual({ pinned: true });
    await user.click(article.getAllByRole('button', { name: 'Hide' })[0]!);
    expect(callsTo(fetchMock, 'POST', '/api/comments/t1/hide')[0]!.body).toEqual({ hidden: true });
    await user.click(article.getAllByRole('button', { name: 'Delete' })[0]!);
    const dialog = within(await screen.findByRole('alertdialog', { name: 'Delete this comment?' }));
    expect(dialog.getByText('Its replies stay, under a note that it was deleted.')).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Delete' }));
    await vi.waitFor(() => expect(callsTo(fetchMock, 'DELETE', '/api/comments/t1')).toHaveLength(1));
  });
});
