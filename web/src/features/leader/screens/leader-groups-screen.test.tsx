import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { License, Member } from '@contracts/licenses.ts';
import { toast } from '@/components/ui/toaster.tsx';
import { paths } from '@/lib/paths.ts';
import { callsTo, errorResponse, fakeApi, jsonResponse, renderWithProviders } from '@/test/render.tsx';
import { spyOnToasts } from '@/test/toasts.ts';
import { leaderMessages as m } from '../leader-messages.ts';
import { license, member } from '../test/fixtures.ts';
import { LeaderGroupsScreen } from './leader-groups-screen.tsx';

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));
spyOnToasts();
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const SEATS = '/api/leader/licenses/lic-1/seats';
const IMPORT = `${SEATS}/import`;
const emailsOf = (init: RequestInit | undefined) => (JSON.parse(init!.body as string) as { emails: string[] }).emails;
const open = (search = '') => renderWithProviders(<LeaderGroupsScreen />, { path: `${paths.leader.groups}${search}` });

/** The API of a leader with these licences; 'lic-1' has `members`; `more` adds or overrides routes. */
const api = (licenses: License[], members: Member[], more: Parameters<typeof fakeApi>[0] = {}) =>
  fakeApi({
    'GET /api/leader/licenses': () => jsonResponse(200, { nextCursor: null, items: licenses }),
    [`GET ${SEATS}`]: () => jsonResponse(200, { nextCursor: null, items: members }),
    ...more,
  });

const findMembers = async () => within(await screen.findByRole('region', { name: m.members.title })).getByRole('table');
const cellsOf = (row: HTMLElement) => within(row).getAllByRole('cell').map((cell) => cell.textContent);
const resultsOf = () =>
  within(screen.getByRole('list', { name: m.add.results }))
    .getAllByRole('listitem')
    .map((item) => item.textContent);

async function paste(text: string) {
  const emails = await screen.findByRole('textbox', { name: m.add.emails });
  await userEvent.click(emails);
  await userEvent.paste(text);
}

describe('LeaderGroupsScreen: the group', () => {
  it("shows the course, the seats in use and each member's status, progress, last activity and completion", async () => {
    api(
      [license('lic-1', 'Watercolour for Beginners', { seatsTotal: 10, seatsUsed: 2, expiresAt: '2030-06-30T12:00:00.000Z' })],
      [
        member('ann@example.com', { progress: 100, lastActivity: '2026-11-23T10:00:00.000Z', completedAt: '2026-11-23T10:00:00.000Z' }),
        member('bo@example.com', { progress: 40, lastActivity: '2026-11-22T10:00:00.000Z' }),
        member('cleo@example.com'),
        member('dan@example.com', { status: 'revoked', progress: 15, lastActivity: '2026-11-21T10:00:00.000Z' }),
      ],
    );
    open();
    expect(await screen.findByRole('status')).toHaveTextContent(m.groups.loading);
    const table = await findMembers();

    expect(screen.getByRole('heading', { level: 1, name: m.groups.title })).toBeInTheDocument();
    expect(screen.getByText(m.groups.description)).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Watercolour for Beginners' })).toBeInTheDocument();
    expect(screen.getByText('2 of 10 seats used')).toBeInTheDocument();
    expect(screen.getByText('Granted 20 Nov 2026 · Ends 30 Jun 2030')).toBeInTheDocument();
    // One licence: nothing to pick.
    expect(screen.queryByRole('combobox', { name: m.groups.picker })).not.toBeInTheDocument();

    expect(within(table).getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Member', 'Status', 'Progress', 'Last activity', 'Completed', 'Actions']);
    expect(within(table).getAllByRole('row').slice(1).map(cellsOf)).toEqual([
      ['ann@example.com', 'Active', '100%', '23 Nov 2026', '23 Nov 2026', 'Remove'],
      ['bo@example.com', 'Active', '40%', '22 Nov 2026', m.members.notCompleted, 'Remove'],
      ['cleo@example.com', 'Active', '0%', m.members.noActivity, m.members.notCompleted, 'Remove'],
      ['dan@example.com', 'Removed', '15%', '21 Nov 2026', m.members.notCompleted, 'Add again'],
    ]);
    expect(screen.getByRole('progressbar', { name: 'bo@example.com: 40% complete' })).toHaveAttribute('aria-valuenow', '40');
    expect(screen.getByRole('button', { name: 'Remove ann@example.com' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Add dan@example.com again' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'Remove dan@example.com' })).not.toBeInTheDocument();
  });

  it("shows a big group's members a page at a time: 'Load more' adds the next page below, until the list ends", async () => {
    const fetchMock = api([license('lic-1', 'Watercolour for Beginners', { seatsTotal: 100, seatsUsed: 3 })], [], {
      [`GET ${SEATS}`]: () => jsonResponse(200, { nextCursor: 'p2', items: [member('ann@example.com'), member('bo@example.com')] }),
      [`GET ${SEATS}?cursor=p2`]: () => jsonResponse(200, { nextCursor: null, items: [member('cleo@example.com')] }),
    });
    open();
    const table = await findMembers();
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    await userEvent.click(screen.getByRole('button', { name: m.members.loadMore }));
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(4));
    expect(within(table).getByText('cleo@example.com')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: m.members.loadMore })).not.toBeInTheDocument();
    expect(callsTo(fetchMock, 'GET', `${SEATS}?cursor=p2`)).toHaveLength(1);
  });

  it('says there are no groups when the leader has no licence', async () => {
    api([], []);
    open();
    expect(await screen.findByRole('heading', { name: m.groups.empty.title })).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: m.add.emails })).not.toBeInTheDocument();
  });

  it('invites to add members by email when the group has none yet', async () => {
    api([license('lic-1', 'Watercolour for Beginners', { seatsUsed: 0 })], []);
    open();
    expect(await screen.findByText(m.members.empty)).toBeInTheDocument();
    expect(screen.getByText('0 of 10 seats used')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: m.add.submit })).toBeEnabled();
  });

  it("offers 'Try again' when the groups cannot be loaded", async () => {
    let fail = true;
    api([], [], {
      'GET /api/leader/licenses': () => (fail ? errorResponse(500, 'INTERNAL', 'boom') : jsonResponse(200, { nextCursor: null, items: [license('lic-1', 'Watercolour for Beginners')] })),
    });
    open();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(m.groups.loadFailed);
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: m.groups.retry }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Watercolour for Beginners' })).toBeInTheDocument();
  });

  it('shows an ended licence without the form or the buttons: nobody can be added', async () => {
    api([license('lic-1', 'Watercolour for Beginners', { status: 'ended' })], [member('ann@example.com')]);
    open();
    const table = await findMembers();
    expect(screen.getByRole('note')).toHaveTextContent(m.groups.ended);
    expect(screen.queryByRole('textbox', { name: m.add.emails })).not.toBeInTheDocument();
    expect(within(table).queryByRole('button')).not.toBeInTheDocument();
  });
});

describe('LeaderGroupsScreen: choosing a group', () => {
  const licenses = [license('lic-2', 'Portraits in Ink', { seatsUsed: 1, seatsTotal: 5 }), license('lic-1', 'Watercolour for Beginners')];
  const more = { 'GET /api/leader/licenses/lic-2/seats': () => jsonResponse(200, { nextCursor: null, items: [member('zoe@example.com')] }) };

  it('opens the group of ?license=, and another chosen with Group goes in the address', async () => {
    api(licenses, [member('ann@example.com')], more);
    const { router } = open('?license=lic-1');
    expect(within(await findMembers()).getByText('ann@example.com')).toBeInTheDocument();
    const picker = screen.getByRole('combobox', { name: m.groups.picker });
    expect(picker).toHaveTextContent('Watercolour for Beginners');
    expect(screen.getByText('3 of 10 seats used')).toBeInTheDocument();

    await userEvent.click(picker);
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual(['Portraits in Ink', 'Watercolour for Beginners']);
    await userEvent.click(screen.getByRole('option', { name: 'Portraits in Ink' }));

    await waitFor(() => expect(router.state.location.search).toBe('?license=lic-2'));
    expect(within(await findMembers()).getByText('zoe@example.com')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Portraits in Ink' })).toBeInTheDocument();
    expect(screen.getByText('1 of 5 seats used')).toBeInTheDocument();
  });

  it('opens the newest group without ?license= (or with an unknown one)', async () => {
    const fetchMock = api(licenses, [], more);
    open('?license=lic-unknown');
    expect(within(await findMembers()).getByText('zoe@example.com')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: m.groups.picker })).toHaveTextContent('Portraits in Ink');
    expect(callsTo(fetchMock, 'GET', SEATS)).toHaveLength(0);
  });
});

describe('LeaderGroupsScreen: adding members', () => {
  it('checks each pasted row first, sends the emails in one import request, and says what became of each row', async () => {
    let seatsUsed = 1;
    const fetchMock = api([license('lic-1', 'Watercolour for Beginners', { seatsUsed: 1 })], [member('ann@example.com')], {
      'GET /api/leader/licenses': () => jsonResponse(200, { nextCursor: null, items: [license('lic-1', 'Watercolour for Beginners', { seatsUsed })] }),
      [`POST ${IMPORT}`]: (init) =>
        jsonResponse(200, {
          results: emailsOf(init).map((email) => {
            if (email === 'dan@example.com') return { email, error: { code: 'CONFLICT', message: 'dan@example.com already has this course.' } };
            seatsUsed += 1;
            return { email, status: 'active' };
          }),
        }),
    });
    open();
    await findMembers();

    await paste('Bo@Example.com, not-an-email\ncleo@example.com bo@example.com;ann@example.com\n\ndan@example.com');
    await userEvent.click(screen.getByRole('button', { name: m.add.submit }));

    await waitFor(() =>
      expect(resultsOf()).toEqual([
        'bo@example.comAdded',
        'not-an-emailNot an email',
        'cleo@example.comAdded',
        'bo@example.comDuplicate',
        'ann@example.comAlready a member',
        'dan@example.comdan@example.com already has this course.',
      ]),
    );
    expect(callsTo(fetchMock, 'POST', IMPORT).map((call) => call.body)).toEqual([{ emails: ['bo@example.com', 'cleo@example.com', 'dan@example.com'] }]);
    expect(callsTo(fetchMock, 'POST', SEATS), 'no single-seat requests for several emails').toHaveLength(0);
    expect(toast.error).toHaveBeenCalledWith('2 added, 2 failed, 1 already a member', { description: m.add.failedHint });
    expect(screen.getByRole('textbox', { name: m.add.emails })).toHaveValue('');
    // The members and the seat counts are loaded again.
    await waitFor(() => expect(callsTo(fetchMock, 'GET', SEATS)).toHaveLength(2));
    expect(callsTo(fetchMock, 'GET', '/api/leader/licenses')).toHaveLength(2);
    expect(await screen.findByText('3 of 10 seats used')).toBeInTheDocument();
  });

  it("sends 30 emails in chunks of 25, says 'Adding 25 of 30...' per chunk, and 'No seats left' for the emails the server had no seat for", async () => {
    let release: () => void = () => undefined;
    const first = new Promise<void>((resolve) => {
      release = resolve;
    });
    const emails = Array.from({ length: 30 }, (_, i) => `m${String(i).padStart(2, '0')}@example.com`);
    let taken = 0;
    const fetchMock = api([license('lic-1', 'Watercolour for Beginners', { seatsTotal: 27, seatsUsed: 0 })], [], {
      [`POST ${IMPORT}`]: async (init) => {
        const chunk = emailsOf(init);
        if (taken === 0) await first;
        return jsonResponse(200, {
          results: chunk.map((email) =>
            ++taken <= 27 ? { email, status: 'active' } : { email, error: { code: 'NO_SEATS_LEFT', message: 'Every seat of this licence is taken (27 of 27).' } },
          ),
        });
      },
    });
    open();
    await screen.findByText(m.members.empty);

    await paste(emails.join('\n'));
    await userEvent.click(screen.getByRole('button', { name: m.add.submit }));
    expect(await screen.findByText('Adding 25 of 30...')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: m.add.emails })).toBeDisabled();
    release();

    await waitFor(() => expect(resultsOf()).toEqual(emails.map((email, i) => `${email}${i < 27 ? 'Added' : 'No seats left'}`)));
    expect(callsTo(fetchMock, 'POST', IMPORT).map((call) => call.body)).toEqual([{ emails: emails.slice(0, 25) }, { emails: emails.slice(25) }]);
    expect(screen.queryByText(/^Adding/)).not.toBeInTheDocument();
    expect(toast.error).toHaveBeenCalledWith('27 added, 3 failed', { description: m.add.failedHint });
  });

  it("shows the server's PLAN_REQUIRED refusal of an import as the lock's reason, and keeps the emails", async () => {
    const reason = "Importing members from a file is part of the course creator's Pro plan: add members one by one instead.";
    api([license('lic-1', 'Watercolour for Beginners')], [], {
      [`POST ${IMPORT}`]: () => errorResponse(403, 'PLAN_REQUIRED', reason, { requiredPlan: 'pro' }),
    });
    open();
    await screen.findByText(m.members.empty);
    await paste('ann@example.com bo@example.com');
    await userEvent.click(screen.getByRole('button', { name: m.add.submit }));
    expect(await screen.findByText(reason)).toBeInTheDocument();
    expect(screen.queryByText(m.add.csv)).not.toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: m.add.emails })).toHaveValue('ann@example.com bo@example.com');
    expect(screen.queryByText(/^Adding/)).not.toBeInTheDocument();
  });

  it('toasts the summary as a success when every email was added', async () => {
    api([license('lic-1', 'Watercolour for Beginners')], [], {
      [`POST ${IMPORT}`]: (init) => jsonResponse(200, { results: emailsOf(init).map((email) => ({ email, status: 'active' })) }),
    });
    open();
    await screen.findByText(m.members.empty);
    await paste('ann@example.com bo@example.com');
    await userEvent.click(screen.getByRole('button', { name: m.add.submit }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('2 added'));
    expect(toast.error).not.toHaveBeenCalled();
  });

  it('asks for an email before sending anything', async () => {
    const fetchMock = api([license('lic-1', 'Watercolour for Beginners')], []);
    open();
    await screen.findByText(m.members.empty);
    await userEvent.click(screen.getByRole('button', { name: m.add.submit }));
    const emails = screen.getByRole('textbox', { name: m.add.emails });
    expect(emails).toHaveAttribute('aria-invalid', 'true');
    expect(emails).toHaveAccessibleDescription(`${m.add.emailsHint} ${m.add.nothing}`);
    expect(emails).toHaveFocus();
    expect(callsTo(fetchMock, 'POST', SEATS)).toHaveLength(0);
  });

  it('takes every email-looking cell of a chosen CSV file into the list', async () => {
    api([license('lic-1', 'Watercolour for Beginners')], []);
    open();
    await screen.findByText(m.members.empty);
    await paste('ann@example.com');

    const csv = new File(['\uFEFFname,email,team\n"Bo Jones",bo@example.com,Sales\nCleo Park;"cleo@example.com";Ops\nno email here,,\n'], 'team.csv', { type: 'text/csv' });
    await userEvent.upload(screen.getByLabelText(m.add.csv), csv);

    expect(await screen.findByText('2 emails from team.csv added to the list.')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: m.add.emails })).toHaveValue('ann@example.com\nbo@example.com\ncleo@example.com');
  });
});

describe("LeaderGroupsScreen: the creator's plan (issue 29)", () => {
  it("says why a licence of a creator not on Pro has no CSV import, and adds its members one at a time", async () => {
    const fetchMock = api([{ ...license('lic-1', 'Watercolour for Beginners'), bulkMembers: false }], [], {
      [`POST ${SEATS}`]: () => jsonResponse(201, { email: 'ann@example.com', status: 'active' }),
    });
    open();
    await screen.findByText(m.members.empty);
    expect(screen.getByRole('note')).toHaveTextContent(m.add.bulkLocked);
    expect(screen.queryByLabelText(m.add.csv)).not.toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: m.add.emails })).toHaveAccessibleDescription(m.add.oneAtATime);

    await paste('ann@example.com, bo@example.com');
    await userEvent.click(screen.getByRole('button', { name: m.add.submit }));
    expect(screen.getByRole('textbox', { name: m.add.emails })).toHaveAccessibleDescription(`${m.add.oneAtATime} ${m.add.severalLocked}`);
    expect(callsTo(fetchMock, 'POST', SEATS)).toHaveLength(0);

    await userEvent.clear(screen.getByRole('textbox', { name: m.add.emails }));
    await paste('ann@example.com');
    await userEvent.click(screen.getByRole('button', { name: m.add.submit }));
    await waitFor(() => expect(callsTo(fetchMock, 'POST', SEATS)).toEqual([expect.objectContaining({ body: { email: 'ann@example.com' } })]));
  });

  it("keeps the CSV import on a Pro creator's licence", async () => {
    api([{ ...license('lic-1', 'Watercolour for Beginners'), bulkMembers: true }], []);
    open();
    await screen.findByText(m.members.empty);
    expect(screen.getByLabelText(m.add.csv)).toBeInTheDocument();
    expect(screen.queryByRole('note')).not.toBeInTheDocument();
  });
});

describe('LeaderGroupsScreen: removing and adding again', () => {
  it('removes a member after the confirmation, with the email encoded in the path', async () => {
    let removed = false;
    const path = `${SEATS}/ann%2Bteam%40example.com`;
    const fetchMock = api([license('lic-1', 'Watercolour for Beginners')], [], {
      [`GET ${SEATS}`]: () => jsonResponse(200, { nextCursor: null, items: [member('ann+team@example.com', { status: removed ? 'revoked' : 'active' })] }),
      [`DELETE ${path}`]: () => {
        removed = true;
        return new Response(null, { status: 204 });
      },
    });
    open();
    await findMembers();

    await userEvent.click(screen.getByRole('button', { name: 'Remove ann+team@example.com' }));
    let question = screen.getByRole('alertdialog', { name: 'Remove ann+team@example.com from Watercolour for Beginners?' });
    expect(question).toHaveTextContent('loses access to the course but keeps their progress, and their seat becomes free');
    await userEvent.click(within(question).getByRole('button', { name: 'Cancel' }));
    expect(callsTo(fetchMock, 'DELETE', path)).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'Remove ann+team@example.com' }));
    question = screen.getByRole('alertdialog', { name: 'Remove ann+team@example.com from Watercolour for Beginners?' });
    await userEvent.click(within(question).getByRole('button', { name: m.remove.action }));

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(m.remove.done, { description: 'ann+team@example.com no longer has Watercolour for Beginners. Their seat is free.' }));
    expect(callsTo(fetchMock, 'DELETE', path)).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(await screen.findByRole('button', { name: 'Add ann+team@example.com again' })).toBeEnabled();
  });

  it('toasts the reason when the member cannot be removed', async () => {
    api([license('lic-1', 'Watercolour for Beginners')], [member('ann@example.com')], {
      [`DELETE ${SEATS}/ann%40example.com`]: () => errorResponse(404, 'NOT_FOUND', 'No active seat for this email.'),
    });
    open();
    await findMembers();
    await userEvent.click(screen.getByRole('button', { name: 'Remove ann@example.com' }));
    await userEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: m.remove.action }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Error', { description: 'No active seat for this email.' }));
    expect(toast.success).not.toHaveBeenCalled();
  });

  it("gives a removed member their seat again with 'Add again'", async () => {
    let back = false;
    const fetchMock = api([license('lic-1', 'Watercolour for Beginners')], [], {
      [`GET ${SEATS}`]: () => jsonResponse(200, { nextCursor: null, items: [member('dan@example.com', { status: back ? 'active' : 'revoked', progress: 15 })] }),
      [`POST ${SEATS}`]: () => {
        back = true;
        return jsonResponse(201, { email: 'dan@example.com', status: 'active' });
      },
    });
    open();
    await findMembers();

    await userEvent.click(screen.getByRole('button', { name: 'Add dan@example.com again' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(m.again.done, { description: 'dan@example.com has Watercolour for Beginners again, with their progress.' }));
    expect(callsTo(fetchMock, 'POST', SEATS).map((call) => call.body)).toEqual([{ email: 'dan@example.com' }]);
    expect(await screen.findByRole('button', { name: 'Remove dan@example.com' })).toBeEnabled();
  });

  it("toasts the server's reason when there is no seat to add a member again", async () => {
    api([license('lic-1', 'Watercolour for Beginners', { seatsUsed: 10 })], [member('dan@example.com', { status: 'revoked' })], {
      [`POST ${SEATS}`]: () => errorResponse(409, 'NO_SEATS_LEFT', 'Every seat of this licence is taken (10 of 10). Free a seat, or ask for more seats.'),
    });
    open();
    await findMembers();
    await userEvent.click(screen.getByRole('button', { name: 'Add dan@example.com again' }));
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('Error', { description: 'Every seat of this licence is taken (10 of 10). Free a seat, or ask for more seats.' }),
    );
  });
});
