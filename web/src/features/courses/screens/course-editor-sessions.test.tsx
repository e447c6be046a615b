import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LiveSession } from '@contracts/live-sessions.ts';
import { toast } from '@/components/ui/toaster.tsx';
import { browserZone, formatSessionStart } from '@/lib/format-session.ts';
import type { fakeApi } from '@/test/render.tsx';
import { callsTo, errorResponse, jsonResponse } from '@/test/render.tsx';
import { subscription } from '@/test/fixtures.ts';
import { spyOnToasts } from '@/test/toasts.ts';
import { liveSessionOf, paintingCourse, zoomOnly } from '../test/fixtures.ts';
import { COURSE, renderCourseEditor } from '../test/render-editor.tsx';

// The course editor's live sessions (issue 30 point 2): the creator schedules a meeting in a connected tool, sees the
// upcoming ones with the host link and the join link, changes and cancels one.

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));
spyOnToasts();
afterEach(() => vi.unstubAllGlobals());

const SESSIONS = `${COURSE}/sessions`;
const ahead = liveSessionOf('s-1', 'Live Q&A', '2030-06-01T17:00:00.000Z', { durationMinutes: 90 });
const ended = liveSessionOf('s-0', 'Kick-off', '2020-01-01T10:00:00.000Z');
const cancelled = liveSessionOf('s-2', 'Office hours', '2030-07-01T17:00:00.000Z', { status: 'cancelled' });

function renderEditor(state: { sessions: LiveSession[] }, extra: Parameters<typeof fakeApi>[0] = {}) {
  return renderCourseEditor(() => paintingCourse, {
    [`GET ${SESSIONS}`]: () => jsonResponse(200, { items: state.sessions }),
    'GET /api/integrations': () => jsonResponse(200, zoomOnly),
    ...extra,
  });
}

const panel = async () => within(await screen.findByRole('region', { name: 'Live sessions' }));

/** Fills the schedule dialog (the date and time inputs through change events: jsdom types into neither). */
async function fillSchedule(user: ReturnType<typeof renderEditor>['user'], title = 'Live Q&A') {
  await user.click(await (await panel()).findByRole('button', { name: 'Schedule session' }));
  const dialog = within(await screen.findByRole('dialog', { name: 'Schedule session' }));
  await user.type(dialog.getByLabelText(/Title/), title);
  fireEvent.change(dialog.getByLabelText(/Date/), { target: { value: '2030-06-01' } });
  fireEvent.change(dialog.getByLabelText(/Time/), { target: { value: '18:30' } });
  await user.selectOptions(dialog.getByLabelText(/Duration/), '90');
  return dialog;
}

describe('CourseEditorScreen: live sessions', () => {
  it('lists the upcoming sessions with local time and zone, duration, tool, the host link in a new tab and the join link to copy; past and cancelled ones folded below', async () => {
    const { user } = renderEditor({ sessions: [ended, ahead, cancelled] });
    const sessions = await panel();
    const upcoming = within(await sessions.findByRole('list', { name: 'Upcoming sessions' }));
    const row = within(upcoming.getByTestId('session-row'));
    expect(row.getByText('Live Q&A')).toBeInTheDocument();
    const start = formatSessionStart(ahead.startsAt);
    expect(start).toMatch(/2030, \d\d:\d\d \S+/);
    expect(row.getByText(start)).toBeInTheDocument();
    expect(row.getByText('1 h 30 min')).toBeInTheDocument();
    expect(row.getByText('Zoom')).toBeInTheDocument();
    const host = row.getByRole('link', { name: 'Start meeting: Live Q&A (opens in a new tab)' });
    expect(host).toHaveAttribute('href', 'https://zoom.example/s/s-1');
    expect(host).toHaveAttribute('target', '_blank');
    expect(sessions.getByText(new RegExp(`your time zone \\(${browserZone()}\\)`))).toBeInTheDocument();

    await user.click(row.getByRole('button', { name: 'Copy the join link of Live Q&A' }));
    expect(await navigator.clipboard.readText()).toBe('https://zoom.example/j/s-1');

    // The past and cancelled ones: collapsed, most recent first, without actions.
    const folded = sessions.getByText('Past and cancelled (2)').closest('details')!;
    expect(folded).not.toHaveAttribute('open');
    const past = within(folded).getAllByTestId('session-row');
    expect(past.map((r) => r.querySelector('.font-medium')?.textContent)).toEqual(['Office hours', 'Kick-off']);
    expect(within(past[0]!).getByText('Cancelled')).toBeInTheDocument();
    expect(within(folded).queryByRole('button')).toBeNull();
    expect(within(folded).queryByRole('link')).toBeNull();
  });

  it('says how to connect a tool when none is connected, and offers no scheduling', async () => {
    renderEditor({ sessions: [] }, { 'GET /api/integrations': () => jsonResponse(200, { ...zoomOnly, zoom: { ...zoomOnly.zoom, status: 'error', error: 'Refused.' } }) });
    const sessions = await panel();
    const note = await sessions.findByTestId('no-provider');
    expect(note).toHaveTextContent('To schedule a session, connect Zoom, Microsoft Teams or Google Calendar first in Live Session Integrations.');
    expect(within(note).getByRole('link', { name: 'Live Session Integrations' })).toHaveAttribute('href', '/dashboard/creator/integrations');
    expect(sessions.queryByRole('button', { name: 'Schedule session' })).toBeNull();
    expect(sessions.getByText('No upcoming sessions.')).toBeInTheDocument();
  });

  it('schedules among the connected tools only, sending the local time as an instant, the browser zone and one Idempotency-Key per opening', async () => {
    const state = { sessions: [] as LiveSession[] };
    let answer!: (res: Response) => void;
    const { user, fetchMock } = renderEditor(state, {
      [`POST ${SESSIONS}`]: () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    const dialog = await fillSchedule(user);
    const tool = dialog.getByLabelText(/Meeting tool/);
    expect(within(tool).getAllByRole('option').map((o) => o.textContent)).toEqual(['Zoom']);
    await user.type(dialog.getByLabelText(/Description/), 'Bring your questions.');
    await user.click(dialog.getByRole('button', { name: 'Schedule session' }));

    expect(await dialog.findByRole('button', { name: 'Scheduling...' })).toBeDisabled();
    const [call] = callsTo(fetchMock, 'POST', SESSIONS);
    expect(call?.body).toEqual({
      title: 'Live Q&A',
      startsAt: new Date(2030, 5, 1, 18, 30).toISOString(),
      durationMinutes: 90,
      provider: 'zoom',
      description: 'Bring your questions.',
      timeZone: browserZone(),
    });
    const key = call?.headers.get('Idempotency-Key');
    expect(key).toMatch(/^[\w.:-]{8,200}$/);

    const saved = liveSessionOf('s-9', 'Live Q&A', new Date(2030, 5, 1, 18, 30).toISOString(), { durationMinutes: 90 });
    state.sessions = [saved];
    answer(jsonResponse(201, saved));
    expect(await (await panel()).findByText('Live Q&A')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(toast.success).toHaveBeenCalledWith('Session scheduled', { description: '“Live Q&A” has its meeting in Zoom.' });

    // A new opening is a new intent: a new key.
    const again = await fillSchedule(user, 'Second');
    await user.click(again.getByRole('button', { name: 'Schedule session' }));
    await vi.waitFor(() => expect(callsTo(fetchMock, 'POST', SESSIONS)).toHaveLength(2));
    expect(callsTo(fetchMock, 'POST', SESSIONS)[1]?.headers.get('Idempotency-Key')).not.toBe(key);
  });

  it('shows the refusals in words: a tool not connected, a tool down, a field the server refuses (under it); a retry keeps the key', async () => {
    const answers = [
      errorResponse(409, 'INTEGRATION_NOT_CONNECTED', 'Zoom is not connected: Zoom refused the API Secret.', { provider: 'zoom' }),
      errorResponse(502, 'UPSTREAM_FAILED', 'Zoom did not answer. Nothing was scheduled; try again in a moment.'),
      errorResponse(400, 'VALIDATION_FAILED', 'The request is not valid.', [{ path: ['startsAt'], message: 'Schedule the session at most 366 days ahead.' }]),
    ];
    const { user, fetchMock } = renderEditor({ sessions: [] }, { [`POST ${SESSIONS}`]: () => answers.shift()! });
    const dialog = await fillSchedule(user);
    const send = () => user.click(dialog.getByRole('button', { name: 'Schedule session' }));

    await send();
    expect(await dialog.findByRole('alert')).toHaveTextContent('Zoom is not connected: Zoom refused the API Secret.');
    await send();
    expect(await dialog.findByText('Zoom did not answer. Nothing was scheduled; try again in a moment.')).toBeInTheDocument();
    await send();
    const date = dialog.getByLabelText(/Date/);
    expect(await dialog.findByText('Schedule the session at most 366 days ahead.')).toBeInTheDocument();
    expect(date).toHaveAttribute('aria-invalid', 'true');
    expect(dialog.queryByRole('alert')).toBeNull();

    const keys = callsTo(fetchMock, 'POST', SESSIONS).map((c) => c.headers.get('Idempotency-Key'));
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
  });

  it('checks the form before sending: a title, a day and a time still ahead', async () => {
    const { user, fetchMock } = renderEditor({ sessions: [] });
    await user.click(await (await panel()).findByRole('button', { name: 'Schedule session' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Schedule session' }));
    fireEvent.change(dialog.getByLabelText(/Date/), { target: { value: '2020-01-01' } });
    await user.click(dialog.getByRole('button', { name: 'Schedule session' }));
    expect(dialog.getByText('Enter a title for the session.')).toBeInTheDocument();
    expect(dialog.getByText('Pick a time that is still ahead.')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', SESSIONS)).toHaveLength(0);
  });

  it('changes a session: the same dialog filled in, a PATCH of the title, time and duration (the tool stays)', async () => {
    const state = { sessions: [ahead] };
    const { user, fetchMock } = renderEditor(state, {
      [`PATCH ${SESSIONS}/s-1`]: () => {
        state.sessions = [{ ...ahead, title: 'Live Q&A (moved)', startsAt: new Date(2030, 5, 2, 19, 0).toISOString() }];
        return jsonResponse(200, state.sessions[0]);
      },
    });
    await user.click(await (await panel()).findByRole('button', { name: 'Change Live Q&A' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Change session' }));
    expect(dialog.getByLabelText(/Title/)).toHaveValue('Live Q&A');
    expect(dialog.getByLabelText(/Duration/)).toHaveValue('90');
    expect(dialog.getByLabelText(/Meeting tool/)).toBeDisabled();
    await user.clear(dialog.getByLabelText(/Title/));
    await user.type(dialog.getByLabelText(/Title/), 'Live Q&A (moved)');
    fireEvent.change(dialog.getByLabelText(/Date/), { target: { value: '2030-06-02' } });
    fireEvent.change(dialog.getByLabelText(/Time/), { target: { value: '19:00' } });
    await user.click(dialog.getByRole('button', { name: 'Save changes' }));

    expect(await (await panel()).findByText('Live Q&A (moved)')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'PATCH', `${SESSIONS}/s-1`)[0]?.body).toEqual({
      title: 'Live Q&A (moved)',
      startsAt: new Date(2030, 5, 2, 19, 0).toISOString(),
      durationMinutes: 90,
      timeZone: browserZone(),
    });
  });

  it('cancels after a confirmation naming the session and saying the meeting is deleted in its tool', async () => {
    const state = { sessions: [ahead] };
    const { user, fetchMock } = renderEditor(state, {
      [`DELETE ${SESSIONS}/s-1`]: () => {
        state.sessions = [{ ...ahead, status: 'cancelled' }];
        return new Response(null, { status: 204 });
      },
    });
    await user.click(await (await panel()).findByRole('button', { name: 'Cancel Live Q&A' }));
    const confirm = within(await screen.findByRole('alertdialog', { name: 'Cancel “Live Q&A”?' }));
    expect(confirm.getByText(/The meeting is deleted in Zoom\./)).toBeInTheDocument();
    expect(callsTo(fetchMock, 'DELETE', `${SESSIONS}/s-1`)).toHaveLength(0);
    // 'Keep session' closes it and changes nothing.
    await user.click(confirm.getByRole('button', { name: 'Keep session' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(callsTo(fetchMock, 'DELETE', `${SESSIONS}/s-1`)).toHaveLength(0);
    await user.click(await (await panel()).findByRole('button', { name: 'Cancel Live Q&A' }));
    await user.click(within(await screen.findByRole('alertdialog', { name: 'Cancel “Live Q&A”?' })).getByRole('button', { name: 'Cancel session' }));

    expect(await (await panel()).findByText('Past and cancelled (1)')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'DELETE', `${SESSIONS}/s-1`)).toHaveLength(1);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(screen.getByText('No upcoming sessions.')).toBeInTheDocument();
  });

  it("shows a change Zoom has not made yet plainly, with Zoom's reason, and still lets the creator cancel (pending too)", async () => {
    const pending = { ...ahead, providerSync: 'pending' as const, providerError: 'Zoom answered 503 (the meeting update).' };
    const givenUp = { ...ended, status: 'cancelled' as const, providerSync: 'pending' as const, providerError: 'Zoom refused the API Secret.' };
    const state = { sessions: [givenUp, pending] };
    const { user, fetchMock } = renderEditor(state, {
      [`DELETE ${SESSIONS}/s-1`]: () => {
        const cancelledPending = { ...pending, status: 'cancelled' as const, providerError: 'Zoom did not answer within 10 s (the meeting delete).' };
        state.sessions = [givenUp, cancelledPending];
        return jsonResponse(200, cancelledPending);
      },
    });
    const sessions = await panel();
    const row = within(within(await sessions.findByRole('list', { name: 'Upcoming sessions' })).getByTestId('session-row'));
    const note = row.getByRole('note');
    expect(note).toHaveTextContent('Not yet changed in Zoom: we keep trying.');
    expect(note).toHaveTextContent('Zoom answered 503 (the meeting update).');
    // Everything else stays: the host link, the join link, change and cancel.
    expect(row.getByRole('link', { name: 'Start meeting: Live Q&A (opens in a new tab)' })).toBeInTheDocument();
    expect(row.getByRole('button', { name: 'Change Live Q&A' })).toBeEnabled();

    await user.click(row.getByRole('button', { name: 'Cancel Live Q&A' }));
    await user.click(within(await screen.findByRole('alertdialog', { name: 'Cancel “Live Q&A”?' })).getByRole('button', { name: 'Cancel session' }));
    await vi.waitFor(() => expect(callsTo(fetchMock, 'DELETE', `${SESSIONS}/s-1`)).toHaveLength(1));
    expect(toast.success).toHaveBeenCalledWith('Session cancelled', { description: '“Live Q&A” is cancelled here. Not yet deleted in Zoom: we keep trying.' });
    const folded = (await (await panel()).findByText('Past and cancelled (2)')).closest('details')!;
    const notes = within(folded).getAllByRole('note');
    expect(notes[0]).toHaveTextContent('Not yet deleted in Zoom: we keep trying.Zoom did not answer within 10 s (the meeting delete).');
    // One that ended over a day ago: the server stopped trying, and says so.
    expect(notes[1]).toHaveTextContent('Not deleted in Zoom: we stopped trying a day after the session ended.Zoom refused the API Secret.');
  });

  it('says so when a change is saved but Zoom has not made it yet; a session Zoom has shows no note', async () => {
    const state = { sessions: [ahead] };
    const { user } = renderEditor(state, {
      [`PATCH ${SESSIONS}/s-1`]: () => {
        state.sessions = [{ ...ahead, title: 'Moved', providerSync: 'pending', providerError: 'Zoom answered 503.' }];
        return jsonResponse(200, state.sessions[0]);
      },
    });
    const sessions = await panel();
    await sessions.findByRole('list', { name: 'Upcoming sessions' });
    expect(sessions.queryByRole('note')).toBeNull();
    await user.click(sessions.getByRole('button', { name: 'Change Live Q&A' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Change session' }));
    await user.clear(dialog.getByLabelText(/Title/));
    await user.type(dialog.getByLabelText(/Title/), 'Moved');
    await user.click(dialog.getByRole('button', { name: 'Save changes' }));
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(toast.success).toHaveBeenCalledWith('Session changed', { description: '“Moved” is changed here. Not yet changed in Zoom: we keep trying.' });
    expect(await (await panel()).findByRole('note')).toHaveTextContent('Not yet changed in Zoom: we keep trying.Zoom answered 503.');
  });

  it('without a plan: the sessions read-only (no scheduling, no change) but cancelling still offered', async () => {
    const { user, queryClient } = renderEditor({ sessions: [ahead] }, { 'GET /api/me/subscription': () => jsonResponse(200, subscription(null)) });
    const sessions = await panel();
    await sessions.findByRole('list', { name: 'Upcoming sessions' });
    await vi.waitFor(() => expect(queryClient.getQueryState(['billing', 'subscription'])?.status).toBe('success'));
    expect(sessions.queryByRole('button', { name: 'Schedule session' })).toBeNull();
    expect(sessions.queryByRole('button', { name: 'Change Live Q&A' })).toBeNull();
    const cancel = sessions.getByRole('button', { name: 'Cancel Live Q&A' });
    expect(cancel).toBeEnabled();
    await user.click(cancel);
    expect(await screen.findByRole('alertdialog', { name: 'Cancel “Live Q&A”?' })).toBeInTheDocument();
  });
});
