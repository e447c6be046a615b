import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SequenceView } from '@contracts/sequences.ts';
import { paths } from '@/lib/paths.ts';
import { callsTo, errorResponse, fakeApi, jsonResponse, renderWithProviders } from '@/test/render.tsx';
import { spyOnToasts } from '@/test/toasts.ts';
import { SequencesScreen } from './sequences-screen.tsx';

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));
spyOnToasts();
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const welcome: SequenceView = {
  id: 'seq-1',
  name: 'Welcome',
  trigger: { kind: 'enrolled', courseId: null },
  steps: [
    { delayDays: 0, subject: 'Welcome to {{courseTitle}}', body: 'Hello {{learnerName}}' },
    { delayDays: 2, subject: 'How is it going?', body: 'Tell us.' },
  ],
  active: true,
  createdAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-20T10:00:00.000Z',
};

const open = () => renderWithProviders(<SequencesScreen />, { path: paths.creator.sequences });
const courses = { items: [], nextCursor: null };

describe('SequencesScreen', () => {
  it('lists each sequence with its trigger, its steps with what each sent, and its entered and unsubscribed counts', async () => {
    fakeApi({
      'GET /api/sequences': () => jsonResponse(200, { items: [welcome] }),
      'GET /api/sequences/seq-1/stats': () => jsonResponse(200, { entered: 5, sent: [5, 3], unsubscribed: 1 }),
      'GET /api/courses?limit=100': () => jsonResponse(200, courses),
    });
    open();
    const list = await screen.findByRole('list', { name: 'Sequences' });
    expect(within(list).getByText('When a learner enrols in any course')).toBeInTheDocument();
    expect(await within(list).findByText('5 entered · 1 unsubscribed')).toBeInTheDocument();
    expect(within(list).getByText('3 sent')).toBeInTheDocument();
  });

  it('says when there is none yet', async () => {
    fakeApi({ 'GET /api/sequences': () => jsonResponse(200, { items: [] }) });
    open();
    expect(await screen.findByText('No sequences yet')).toBeInTheDocument();
  });

  it('says when the list cannot be loaded', async () => {
    fakeApi({ 'GET /api/sequences': () => errorResponse(500, 'INTERNAL', 'down') });
    open();
    expect(await screen.findByText('Your sequences could not be loaded.')).toBeInTheDocument();
  });

  it('switches a sequence off with PATCH {active: false}', async () => {
    const api = fakeApi({
      'GET /api/sequences': () => jsonResponse(200, { items: [welcome] }),
      'GET /api/sequences/seq-1/stats': () => jsonResponse(200, { entered: 0, sent: [0, 0], unsubscribed: 0 }),
      'GET /api/courses?limit=100': () => jsonResponse(200, courses),
      'PATCH /api/sequences/seq-1': () => jsonResponse(200, { ...welcome, active: false }),
    });
    open();
    await userEvent.click(await screen.findByRole('switch', { name: 'On' }));
    await waitFor(() => expect(callsTo(api, 'PATCH', '/api/sequences/seq-1')).toHaveLength(1));
    expect(callsTo(api, 'PATCH', '/api/sequences/seq-1')[0]!.body).toEqual({ active: false });
  });

  it('creates a sequence from the editor, whose preview fills the placeholders with a sample learner', async () => {
    const api = fakeApi({
      'GET /api/sequences': () => jsonResponse(200, { items: [] }),
      'GET /api/courses?limit=100': () => jsonResponse(200, courses),
      'POST /api/sequences': () => jsonResponse(201, welcome),
    });
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'New sequence' }));
    const dialog = await screen.findByRole('dialog', { name: 'New sequence' });
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Welcome');
    const preview = within(dialog).getByRole('region', { name: 'Preview' });
    expect(preview).toHaveTextContent('Subject: Welcome to Your course');
    expect(preview).toHaveTextContent('Hello Alex Sample');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save sequence' }));
    await waitFor(() => expect(callsTo(api, 'POST', '/api/sequences')).toHaveLength(1));
    expect(callsTo(api, 'POST', '/api/sequences')[0]!.body).toMatchObject({ name: 'Welcome', trigger: { kind: 'enrolled', courseId: null }, active: true });
  });
});
