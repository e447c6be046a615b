import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SubscriptionResponse } from '@contracts/billing.ts';
import { toast } from '@/components/ui/toaster.tsx';
import { paths } from '@/lib/paths.ts';
import { onUpgradeRequest, type UpgradeRequest } from '@/lib/upgrade-requests.ts';
import { callsTo, errorResponse, fakeApi, jsonResponse, planLoaded, renderWithProviders } from '@/test/render.tsx';
import { subscription } from '@/test/fixtures.ts';
import { spyOnToasts } from '@/test/toasts.ts';
import { COURSES_REQUIRED, PRICE_INVALID } from '../components/membership-dialog.tsx';
import { membershipsMessages as m } from '../memberships-messages.ts';
import { courses, member, membership } from '../test/fixtures.ts';
import { MembershipsScreen } from './memberships-screen.tsx';

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));
spyOnToasts();
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const open = () => renderWithProviders(<MembershipsScreen />, { path: paths.creator.memberships });

const findTable = async () => within(await screen.findByRole('region', { name: 'Memberships' })).getByRole('table');
const rowsOf = (table: HTMLElement) => within(table).getAllByRole('row').slice(1);
const cellsOf = (row: HTMLElement) => within(row).getAllByRole('cell').map((cell) => cell.textContent);

/** The API of a creator on `plan` with these memberships; `more` adds or overrides routes. */
const api = (items: ReturnType<typeof membership>[], more: Parameters<typeof fakeApi>[0] = {}, plan: SubscriptionResponse = subscription('pro')) =>
  fakeApi({
    'GET /api/memberships': () => jsonResponse(200, { items }),
    'GET /api/courses?limit=100': () => jsonResponse(200, courses),
    'GET /api/me/subscription': () => jsonResponse(200, plan),
    ...more,
  });

async function openCreateDialog() {
  await userEvent.click(await screen.findByRole('button', { name: m.create }));
  return screen.findByRole('dialog', { name: m.form.createTitle });
}

describe('MembershipsScreen: the list', () => {
  it("lists each membership's title and courses, price a month or a year, status and public link", async () => {
    api([membership('ms-1', 'Painting club'), membership('ms-2', 'Ink year', { interval: 'year', priceAmount: 9_900, courseIds: ['course-2'], active: false })]);
    open();
    const table = await findTable();
    expect(within(table).getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Membership', 'Price', 'Status', 'Link', 'Actions']);
    expect(rowsOf(table).map(cellsOf)).toEqual([
      ['Painting clubAll my courses', '£12 a month', 'On sale', 'Copy', 'MembersEditDelete'],
      ['Ink year1 course', '£99 a year', 'Off sale', 'Copy', 'MembersEditDelete'],
    ]);
    expect(screen.getByRole('textbox', { name: 'Link of Painting club' })).toHaveValue(`${window.location.origin}/m/ms-1`);
  });

  it('explains memberships when there are none yet, with Create membership at hand', async () => {
    api([]);
    open();
    expect(await screen.findByRole('heading', { name: m.empty.title })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: m.create })).toBeEnabled();
  });

  it("offers 'Try again' when the list cannot be loaded", async () => {
    let fail = true;
    api([], { 'GET /api/memberships': () => (fail ? errorResponse(500, 'INTERNAL', 'boom') : jsonResponse(200, { items: [membership('ms-1', 'Painting club')] })) });
    open();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(m.loadFailed);
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(rowsOf(await findTable())).toHaveLength(1);
  });
});

describe('MembershipsScreen: create, edit, delete', () => {
  it('creates a yearly membership of chosen published courses (drafts not offered); the new row leads the list', async () => {
    const fetchMock = api([membership('ms-old', 'Older')], {
      'POST /api/memberships': () => jsonResponse(201, membership('ms-new', 'Ink club', { interval: 'year', priceAmount: 9_900, courseIds: ['course-2'] })),
    });
    open();
    await findTable();
    const dialog = await openCreateDialog();
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Title/ }), 'Ink club');
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Year' }));
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Price/ }), '99');
    const boxes = await within(dialog).findAllByRole('checkbox');
    expect(boxes.map((box) => box.closest('label')!.textContent)).toEqual(['Watercolour for Beginners', 'Portraits in Ink']);
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Portraits in Ink' }));
    await userEvent.click(within(dialog).getByRole('button', { name: m.form.create }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(callsTo(fetchMock, 'POST', '/api/memberships').map((call) => call.body)).toEqual([
      { title: 'Ink club', description: '', interval: 'year', priceAmount: 9_900, courseIds: ['course-2'] },
    ]);
    expect(rowsOf(await findTable()).map((row) => cellsOf(row)[0])).toEqual(['Ink club1 course', 'OlderAll my courses']);
    expect(toast.success).toHaveBeenCalledWith(m.form.created, { description: 'Ink club: 1 course for £99 a year.' });
  });

  it('sends "all" for All my courses', async () => {
    const fetchMock = api([], { 'POST /api/memberships': () => jsonResponse(201, membership('ms-new', 'Club')) });
    open();
    const dialog = await openCreateDialog();
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Title/ }), 'Club');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Price/ }), '12');
    await userEvent.click(within(dialog).getByRole('radio', { name: /All my courses/ }));
    await userEvent.click(within(dialog).getByRole('button', { name: m.form.create }));
    await waitFor(() => expect(callsTo(fetchMock, 'POST', '/api/memberships').map((call) => call.body)).toEqual([{ title: 'Club', description: '', interval: 'month', priceAmount: 1_200, courseIds: 'all' }]));
  });

  it('checks the form before sending: a price of at least £1 and at least one course', async () => {
    const fetchMock = api([]);
    open();
    const dialog = await openCreateDialog();
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Title/ }), 'Club');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Price/ }), '0.5');
    await userEvent.click(within(dialog).getByRole('button', { name: m.form.create }));
    expect(await within(dialog).findByText(PRICE_INVALID)).toBeInTheDocument();
    expect(within(dialog).getByText(COURSES_REQUIRED)).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/api/memberships')).toHaveLength(0);
  });

  it('edits the title and courses; the price and interval are fixed', async () => {
    const fetchMock = api([membership('ms-1', 'Painting club')], {
      'PATCH /api/memberships/ms-1': () => jsonResponse(200, membership('ms-1', 'Painting society')),
    });
    open();
    await findTable();
    await userEvent.click(screen.getByRole('button', { name: 'Edit Painting club' }));
    const dialog = await screen.findByRole('dialog', { name: m.form.editTitle });
    expect(within(dialog).getByRole('textbox', { name: /Price/ })).toBeDisabled();
    expect(within(dialog).getByRole('radio', { name: 'Month' })).toBeDisabled();
    expect(within(dialog).getByText(m.form.fixedPrice)).toBeInTheDocument();
    const title = within(dialog).getByRole('textbox', { name: /Title/ });
    await userEvent.clear(title);
    await userEvent.type(title, 'Painting society');
    await userEvent.click(within(dialog).getByRole('button', { name: m.form.save }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(callsTo(fetchMock, 'PATCH', '/api/memberships/ms-1').map((call) => call.body)).toEqual([{ title: 'Painting society', description: '', courseIds: 'all' }]);
    expect(rowsOf(await findTable()).map((row) => cellsOf(row)[0])).toEqual(['Painting societyAll my courses']);
  });

  it('deletes a membership only after the confirmation, saying members keep their courses until their subscriptions end', async () => {
    const fetchMock = api([membership('ms-1', 'Painting club'), membership('ms-2', 'Ink club')], {
      'DELETE /api/memberships/ms-1': () => new Response(null, { status: 204 }),
    });
    open();
    const table = await findTable();
    await userEvent.click(screen.getByRole('button', { name: 'Delete Painting club' }));
    const question = screen.getByRole('alertdialog', { name: 'Delete Painting club?' });
    expect(question).toHaveTextContent('Members keep their courses until their subscriptions end');
    await userEvent.click(within(question).getByRole('button', { name: 'Cancel' }));
    expect(callsTo(fetchMock, 'DELETE', '/api/memberships/ms-1')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Delete Painting club' }));
    await userEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: m.remove.action }));
    await waitFor(() => expect(rowsOf(table)).toHaveLength(1));
    expect(callsTo(fetchMock, 'DELETE', '/api/memberships/ms-1')).toHaveLength(1);
  });
});

describe('MembershipsScreen: members', () => {
  it("shows each member's email, status and renewal or end, the MRR, paying members and churn, and loads the next page", async () => {
    const recent = new Date(Date.now() - 5 * 24 * 60 * 60 * 1000).toISOString();
    // The server's figures over every subscription, whatever the page: two paying at £120 a year, one ended lately.
    const figures = { paying: 2, mrrAmount: 2_000, endedLast30Days: 1 };
    api([membership('ms-1', 'Painting club', { interval: 'year', priceAmount: 12_000 })], {
      'GET /api/memberships/ms-1/members': () =>
        jsonResponse(200, {
          items: [member('ann@example.com', { currentPeriodEnd: '2026-12-20T10:00:00.000Z' }), member('bob@example.com', { cancelAtPeriodEnd: true, currentPeriodEnd: '2026-12-21T10:00:00.000Z' })],
          nextCursor: 'page-2',
          figures,
        }),
      'GET /api/memberships/ms-1/members?cursor=page-2': () =>
        jsonResponse(200, { items: [member('cat@example.com', { status: 'canceled', currentPeriodEnd: recent })], nextCursor: null, figures }),
    });
    open();
    await findTable();
    await userEvent.click(screen.getByRole('button', { name: 'Members of Painting club' }));
    const dialog = await screen.findByRole('dialog', { name: 'Members of Painting club' });
    const members = await within(dialog).findByRole('table');
    expect(rowsOf(members).map(cellsOf)).toEqual([
      ['ann@example.com', 'Active', 'Renews on 20 Dec 2026'],
      ['bob@example.com', 'Active', 'Ends on 21 Dec 2026'],
    ]);
    expect(within(dialog).getByTestId('membership-figures')).toHaveTextContent('Monthly recurring revenue£20Paying members2Ended in the last 30 days1');

    await userEvent.click(within(dialog).getByRole('button', { name: m.members.loadMore }));
    await waitFor(() => expect(rowsOf(members)).toHaveLength(3));
    expect(cellsOf(rowsOf(members)[2]!)).toEqual(['cat@example.com', 'Cancelled', expect.stringMatching(/^Ended on /) as string]);
    expect(within(dialog).getByTestId('membership-figures')).toHaveTextContent('Ended in the last 30 days1');
  });
});

describe('MembershipsScreen off Pro', () => {
  it.each([
    ['on Starter', subscription('starter')],
    ['never subscribed', subscription(null)],
  ])('shows a creator %s why and the way to upgrade, and no Create membership', async (_, plan) => {
    const fetchMock = api([], {}, plan);
    const { queryClient } = open();
    await planLoaded(queryClient);
    expect(await screen.findByRole('heading', { level: 2, name: m.plan.title })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: m.create })).not.toBeInTheDocument();
    const asked: UpgradeRequest[] = [];
    const stop = onUpgradeRequest((request) => asked.push(request));
    await userEvent.click(within(screen.getByTestId('pro-plan-card')).getByRole('button', { name: m.plan.upgrade }));
    stop();
    expect(asked).toEqual([{ plan: 'pro', reason: expect.stringContaining(m.plan.title) as string }]);
    expect(fetchMock.mock.calls.filter(([, init]) => (init?.method ?? 'GET') !== 'GET')).toEqual([]);
  });

  it('still lists memberships made on Pro, read-only, with their members', async () => {
    api([membership('ms-1', 'Painting club')], {}, subscription('starter'));
    const { queryClient } = open();
    await planLoaded(queryClient);
    const table = await findTable();
    expect(screen.getByTestId('pro-plan-card')).toHaveTextContent(m.plan.earlier);
    expect(within(table).getByRole('switch', { name: 'Painting club on sale' })).toBeDisabled();
    expect(within(table).queryByRole('button', { name: 'Edit Painting club' })).not.toBeInTheDocument();
    expect(within(table).getByRole('button', { name: 'Members of Painting club' })).toBeEnabled();
  });
});
