import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { License } from '@contracts/licenses.ts';
import { paths } from '@/lib/paths.ts';
import { errorResponse, fakeApi, jsonResponse, renderWithProviders } from '@/test/render.tsx';
import { leaderMessages } from '../leader-messages.ts';
import { license } from '../test/fixtures.ts';
import { LeaderLicensesScreen } from './leader-licenses-screen.tsx';

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const m = leaderMessages.licenses;
const open = () => renderWithProviders(<LeaderLicensesScreen />, { path: paths.leader.licenses });
const api = (items: License[]) => fakeApi({ 'GET /api/leader/licenses': () => jsonResponse(200, { nextCursor: null, items }) });

const findTable = async () => within(await screen.findByRole('region', { name: 'Licenses' })).getByRole('table');
const cellsOf = (row: HTMLElement) => within(row).getAllByRole('cell').map((cell) => cell.textContent);

describe('LeaderLicensesScreen', () => {
  it("lists each licence's course, seats used of the total with a bar, end date and status, with 'Manage seats'", async () => {
    api([
      license('lic-2', 'Portraits in Ink', { seatsTotal: 25, seatsUsed: 18, expiresAt: '2030-06-30T12:00:00.000Z', source: 'purchased', createdAt: '2026-11-24T10:00:00.000Z' }),
      license('lic-1', 'Watercolour for Beginners', { seatsTotal: 1, seatsUsed: 1, status: 'ended' }),
    ]);
    const { router } = open();
    expect(await screen.findByRole('status')).toHaveTextContent(m.loading);
    const table = await findTable();

    expect(screen.getByRole('heading', { level: 1, name: m.title })).toBeInTheDocument();
    expect(screen.getByText(m.description)).toBeInTheDocument();
    expect(within(table).getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Course', 'Seats', 'Ends', 'Status', 'Actions']);
    expect(within(table).getAllByRole('row').slice(1).map(cellsOf)).toEqual([
      ['Portraits in InkBought 24 Nov 2026', '18 of 25 seats used', '30 Jun 2030', 'Active', m.manage],
      ['Watercolour for BeginnersGranted 20 Nov 2026', '1 of 1 seat used', m.noEndDate, 'Ended', m.manage],
    ]);
    expect(screen.getByRole('progressbar', { name: 'Portraits in Ink: 18 of 25 seats used' })).toHaveAttribute('aria-valuenow', '72');

    const manage = screen.getByRole('link', { name: 'Manage seats of Portraits in Ink' });
    expect(manage).toHaveAttribute('href', '/dashboard/leader/groups?license=lic-2');
    await userEvent.click(manage);
    expect(router.state.location.pathname).toBe(paths.leader.groups);
    expect(router.state.location.search).toBe('?license=lic-2');
  });

  it('says where licences come from when there are none yet', async () => {
    api([]);
    open();
    expect(await screen.findByRole('heading', { name: m.empty.title })).toBeInTheDocument();
    expect(screen.getByText(/grants them to your organisation, or once you buy them on the course's page/)).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it("offers 'Try again' when the licences cannot be loaded, and lists them once they can", async () => {
    let fail = true;
    fakeApi({
      'GET /api/leader/licenses': () => (fail ? errorResponse(500, 'INTERNAL', 'boom') : jsonResponse(200, { nextCursor: null, items: [license('lic-1', 'Portraits in Ink')] })),
    });
    open();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(m.loadFailed);
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: m.retry }));
    expect(within(await findTable()).getAllByRole('row')).toHaveLength(2);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
