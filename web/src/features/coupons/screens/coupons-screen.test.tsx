import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toast } from '@/components/ui/toaster.tsx';
import { paths } from '@/lib/paths.ts';
import { callsTo, errorResponse, fakeApi, jsonResponse, planLoaded, renderWithProviders } from '@/test/render.tsx';
import { subscription } from '@/test/fixtures.ts';
import { spyOnToasts } from '@/test/toasts.ts';
import { couponsMessages as m } from '../coupons-messages.ts';
import { coupon, courses } from '../test/fixtures.ts';
import { CouponsScreen } from './coupons-screen.tsx';

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));
spyOnToasts();
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const open = () => renderWithProviders(<CouponsScreen />, { path: paths.creator.coupons });

const findTable = async () => within(await screen.findByRole('region', { name: 'Coupons' })).getByRole('table');
const rowsOf = (table: HTMLElement) => within(table).getAllByRole('row').slice(1);
const cellsOf = (row: HTMLElement) => within(row).getAllByRole('cell').map((cell) => cell.textContent);

/** The API of a creator with these coupons; `more` adds or overrides routes. */
const api = (items: ReturnType<typeof coupon>[], more: Parameters<typeof fakeApi>[0] = {}) =>
  fakeApi({
    'GET /api/coupons': () => jsonResponse(200, { nextCursor: null, items }),
    'GET /api/courses?limit=100': () => jsonResponse(200, courses),
    ...more,
  });

async function openCreateDialog() {
  await userEvent.click(screen.getByRole('button', { name: m.create }));
  return screen.findByRole('dialog', { name: m.form.title });
}

describe('CouponsScreen: the list', () => {
  it("lists each coupon's code, discount, courses, use, last day and status", async () => {
    api([
      coupon('SPRING20', { redeemed: 3, maxRedemptions: 50, expiresAt: '2030-12-31T23:59:59.999Z' }),
      coupon('FIVEOFF', { kind: 'amount', value: 500, courseIds: ['course-2', 'course-1'], redeemed: 7, active: false }),
      coupon('GONE', { courseIds: ['course-9'], redeemed: 10, maxRedemptions: 10, expiresAt: '2020-01-31T12:00:00.000Z' }),
    ]);
    open();
    expect(await screen.findByRole('status')).toHaveTextContent(m.loading);
    const table = await findTable();

    expect(within(table).getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Code',
      'Discount',
      'Courses',
      'Used',
      'Expires',
      'Status',
      'Actions',
    ]);
    await waitFor(() => expect(cellsOf(rowsOf(table)[1]!)[2]).toBe('Portraits in Ink, Watercolour for Beginners'));
    expect(rowsOf(table).map(cellsOf)).toEqual([
      ['SPRING20', '20% off', 'All courses', '3 / 50', '31 Dec 2030', 'Active', 'Delete'],
      ['FIVEOFF', '£5 off', 'Portraits in Ink, Watercolour for Beginners', '7', 'Never', 'Inactive', 'Delete'],
      ['GONE', '20% off', 'A deleted course', '10 / 10Used up', '31 Jan 2020Expired', 'Active', 'Delete'],
    ]);
    expect(screen.getByRole('switch', { name: 'SPRING20 active' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'FIVEOFF active' })).not.toBeChecked();
    expect(screen.getByRole('button', { name: 'Delete FIVEOFF' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Coupons' })).toBeInTheDocument();
  });

  it('explains coupons when there are none yet, with Create coupon at hand', async () => {
    api([]);
    open();
    expect(await screen.findByRole('heading', { name: m.empty.title })).toBeInTheDocument();
    expect(screen.getByText(/Give buyers a code for a discount on your courses/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: m.create })).toBeEnabled();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it("offers 'Try again' when the list cannot be loaded, and shows it once it can", async () => {
    let fail = true;
    api([], { 'GET /api/coupons': () => (fail ? errorResponse(500, 'INTERNAL', 'boom') : jsonResponse(200, { nextCursor: null, items: [coupon('SPRING20')] })) });
    open();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(m.loadFailed);
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(rowsOf(await findTable())).toHaveLength(1);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it("shows the first page and 'Load more' while the server has more: the next page joins below, and the button goes at the end", async () => {
    const fetchMock = api([], {
      'GET /api/coupons': () => jsonResponse(200, { nextCursor: 'page-2', items: [coupon('NEWEST'), coupon('NEWER')] }),
      'GET /api/coupons?cursor=page-2': () => jsonResponse(200, { nextCursor: null, items: [coupon('OLDEST')] }),
    });
    open();
    expect(rowsOf(await findTable()).map((row) => cellsOf(row)[0])).toEqual(['NEWEST', 'NEWER']);
    await userEvent.click(screen.getByRole('button', { name: m.loadMore }));
    await waitFor(() => expect(rowsOf(screen.getByRole('table')).map((row) => cellsOf(row)[0])).toEqual(['NEWEST', 'NEWER', 'OLDEST']));
    expect(screen.queryByRole('button', { name: m.loadMore })).not.toBeInTheDocument();
    expect(callsTo(fetchMock, 'GET', '/api/coupons?cursor=page-2')).toHaveLength(1);
  });
});

describe('CouponsScreen: creating a coupon', () => {
  it('creates a percent coupon for all courses: the code is upper-cased as typed, the new row leads the list', async () => {
    const fetchMock = api([coupon('OLDER')], {
      'POST /api/coupons': () => jsonResponse(201, coupon('SPRING20', { createdAt: '2026-11-25T10:00:00.000Z' })),
    });
    open();
    await findTable();
    const dialog = await openCreateDialog();

    const code = within(dialog).getByRole('textbox', { name: /Code/ });
    expect(code).toHaveFocus();
    await userEvent.type(code, 'spring20');
    expect(code).toHaveValue('SPRING20');
    expect(within(dialog).getByRole('radio', { name: 'Percentage off' })).toBeChecked();
    expect(within(dialog).getByRole('radio', { name: 'All my courses' })).toBeChecked();
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Percent off/ }), '20');
    await userEvent.click(within(dialog).getByRole('button', { name: m.form.submit }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(callsTo(fetchMock, 'POST', '/api/coupons').map((call) => call.body)).toEqual([
      { code: 'SPRING20', kind: 'percent', value: 20, courseIds: null },
    ]);
    expect(toast.success).toHaveBeenCalledWith(m.form.created, { description: 'SPRING20 gives 20% off all your courses.' });
    const table = await findTable();
    expect(rowsOf(table).map((row) => cellsOf(row)[0])).toEqual(['SPRING20', 'OLDER']);
    expect(callsTo(fetchMock, 'GET', '/api/coupons')).toHaveLength(1);
  });

  it('creates an amount off in pence for chosen courses, with a cap and a last day, and shows the prices it makes', async () => {
    const fetchMock = api([], {
      'POST /api/coupons': () => jsonResponse(201, coupon('INK499', { kind: 'amount', value: 499, courseIds: ['course-2'], maxRedemptions: 50 })),
    });
    open();
    await screen.findByRole('heading', { name: m.empty.title });
    const dialog = await openCreateDialog();

    await userEvent.type(within(dialog).getByRole('textbox', { name: /Code/ }), 'Ink499');
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Amount off' }));
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Amount off \(£\)/ }), '4.99');
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Chosen courses' }));

    const portraits = await within(dialog).findByRole('checkbox', { name: /Portraits in Ink/ });
    expect(within(dialog).getAllByRole('checkbox').map((box) => box.closest('label')!.textContent)).toEqual([
      'Watercolour for Beginners£40 becomes→ £35.01 with this coupon',
      'Portraits in Ink£25 becomes→ £20.01 with this coupon',
      'Botanical DrawingNot for sale yetDraft',
    ]);
    await userEvent.click(portraits);
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Max redemptions' }), '50');
    fireEvent.change(within(dialog).getByLabelText('Last day'), { target: { value: '2030-12-31' } });
    await userEvent.click(within(dialog).getByRole('button', { name: m.form.submit }));

    await waitFor(() => expect(callsTo(fetchMock, 'POST', '/api/coupons')).toHaveLength(1));
    expect(callsTo(fetchMock, 'POST', '/api/coupons')[0]!.body).toEqual({
      code: 'INK499',
      kind: 'amount',
      value: 499,
      courseIds: ['course-2'],
      maxRedemptions: 50,
      expiresAt: new Date(2030, 11, 31, 23, 59, 59, 999).toISOString(),
    });
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(m.form.created, { description: 'INK499 gives £4.99 off one course.' }));
    const table = await findTable();
    expect(cellsOf(rowsOf(table)[0]!).slice(0, 4)).toEqual(['INK499', '£4.99 off', 'Portraits in Ink', '0 / 50']);
  });

  it('checks the form with the contract before sending: nothing is sent until each field is right', async () => {
    const fetchMock = api([]);
    open();
    await screen.findByRole('heading', { name: m.empty.title });
    const dialog = await openCreateDialog();

    await userEvent.type(within(dialog).getByRole('textbox', { name: /Code/ }), 'no');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Percent off/ }), '150');
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Chosen courses' }));
    await within(dialog).findByRole('checkbox', { name: /Portraits in Ink/ });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Max redemptions' }), '0');
    await userEvent.click(within(dialog).getByRole('button', { name: m.form.submit }));

    expect(await within(dialog).findByText('A code is 3 to 32 letters, digits, "_" or "-".')).toBeInTheDocument();
    expect(within(dialog).getByText('A percent off is 1 to 100.')).toBeInTheDocument();
    expect(within(dialog).getByText('Choose at least one course.')).toBeInTheDocument();
    expect(within(dialog).getByText('From 1 to 1,000,000 uses.')).toBeInTheDocument();
    expect(within(dialog).getByRole('textbox', { name: /Code/ })).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).getByRole('textbox', { name: /Code/ })).toHaveFocus();

    await userEvent.click(within(dialog).getByRole('radio', { name: 'Amount off' }));
    await userEvent.clear(within(dialog).getByRole('textbox', { name: /Amount off/ }));
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Amount off/ }), 'five');
    expect(await within(dialog).findByText('Enter the amount off in pounds, such as 5 or 4.99.')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/api/coupons')).toHaveLength(0);
  });

  it('says on the code field that a code is taken (409 CONFLICT), and keeps the dialog open', async () => {
    api([coupon('SPRING20')], {
      'POST /api/coupons': () => errorResponse(409, 'CONFLICT', 'You already have a coupon with this code.'),
    });
    open();
    await findTable();
    const dialog = await openCreateDialog();
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Code/ }), 'spring20');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Percent off/ }), '10');
    await userEvent.click(within(dialog).getByRole('button', { name: m.form.submit }));

    expect(await within(dialog).findByText('You already have a coupon with this code.')).toBeInTheDocument();
    const code = within(dialog).getByRole('textbox', { name: /Code/ });
    expect(code).toHaveAttribute('aria-invalid', 'true');
    expect(code).toHaveFocus();
    expect(screen.getByRole('dialog', { name: m.form.title })).toBeInTheDocument();
    expect(toast.success).not.toHaveBeenCalled();

    await userEvent.clear(code);
    await userEvent.type(code, 'spring21');
    expect(within(dialog).queryByText('You already have a coupon with this code.')).not.toBeInTheDocument();
  });

  it('sends the creator to connect Stripe first when payments are not set up (409 PAYOUTS_NOT_READY)', async () => {
    api([], {
      'POST /api/coupons': () => errorResponse(409, 'PAYOUTS_NOT_READY', 'Connect your Stripe account first.'),
    });
    const { router } = open();
    await screen.findByRole('heading', { name: m.empty.title });
    const dialog = await openCreateDialog();
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Code/ }), 'welcome');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Percent off/ }), '15');
    await userEvent.click(within(dialog).getByRole('button', { name: m.form.submit }));

    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Connect Stripe in your profile first');
    const link = within(alert).getByRole('link', { name: m.form.connect });
    expect(link).toHaveAttribute('href', '/dashboard/creator/profile#payments');
    expect(toast.success).not.toHaveBeenCalled();

    await userEvent.click(link);
    expect(router.state.location.pathname).toBe(paths.creator.profile);
    expect(router.state.location.hash).toBe('#payments');
  });

  it("shows another refusal's reason in the dialog", async () => {
    api([], { 'POST /api/coupons': () => errorResponse(502, 'UPSTREAM_FAILED', 'Stripe did not answer. Try again in a moment.') });
    open();
    await screen.findByRole('heading', { name: m.empty.title });
    const dialog = await openCreateDialog();
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Code/ }), 'welcome');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Percent off/ }), '15');
    await userEvent.click(within(dialog).getByRole('button', { name: m.form.submit }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Stripe did not answer. Try again in a moment.');
  });
});

describe('CouponsScreen: switching and deleting', () => {
  it('switches a coupon off and on again with PATCH {active}, saying so each time', async () => {
    let active = true;
    const fetchMock = api([coupon('SPRING20')], {
      'PATCH /api/coupons/SPRING20': (init) => {
        active = (JSON.parse(init!.body as string) as { active: boolean }).active;
        return jsonResponse(200, coupon('SPRING20', { active }));
      },
    });
    open();
    const table = await findTable();
    const toggle = screen.getByRole('switch', { name: 'SPRING20 active' });

    await userEvent.click(toggle);
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(m.toggle.off, { description: 'SPRING20 no longer works at checkout.' }));
    expect(toggle).not.toBeChecked();
    expect(cellsOf(rowsOf(table)[0]!)).toContain('Inactive');

    toggle.focus();
    await userEvent.keyboard(' ');
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(m.toggle.on, { description: 'Buyers can use SPRING20 at checkout.' }));
    expect(toggle).toBeChecked();
    expect(callsTo(fetchMock, 'PATCH', '/api/coupons/SPRING20').map((call) => call.body)).toEqual([{ active: false }, { active: true }]);
  });

  it('puts the switch back and toasts the reason when the change is refused', async () => {
    api([coupon('SPRING20')], { 'PATCH /api/coupons/SPRING20': () => errorResponse(502, 'UPSTREAM_FAILED', 'Stripe did not answer.') });
    open();
    await findTable();
    const toggle = screen.getByRole('switch', { name: 'SPRING20 active' });
    await userEvent.click(toggle);
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Error', { description: 'Stripe did not answer.' }));
    await waitFor(() => expect(toggle).toBeChecked());
    expect(toggle).toBeEnabled();
  });

  it('deletes a coupon only after the confirmation', async () => {
    const fetchMock = api([coupon('SPRING20'), coupon('FIVEOFF')], {
      'DELETE /api/coupons/SPRING20': () => new Response(null, { status: 204 }),
    });
    open();
    const table = await findTable();

    await userEvent.click(screen.getByRole('button', { name: 'Delete SPRING20' }));
    const question = screen.getByRole('alertdialog', { name: 'Delete SPRING20?' });
    expect(question).toHaveTextContent('Buyers can no longer use SPRING20. Sales that used it keep their discount.');
    await userEvent.click(within(question).getByRole('button', { name: 'Cancel' }));
    expect(callsTo(fetchMock, 'DELETE', '/api/coupons/SPRING20')).toHaveLength(0);
    expect(screen.getByRole('button', { name: 'Delete SPRING20' })).toHaveFocus();

    await userEvent.click(screen.getByRole('button', { name: 'Delete SPRING20' }));
    await userEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: m.remove.action }));

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(m.remove.done, { description: 'SPRING20 no longer works at checkout.' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(rowsOf(table).map((row) => cellsOf(row)[0])).toEqual(['FIVEOFF']);
    expect(callsTo(fetchMock, 'DELETE', '/api/coupons/SPRING20')).toHaveLength(1);
  });
});

describe('CouponsScreen without a plan (issue 29)', () => {
  it("lists the coupons read-only, with 'Choose a plan to create coupons': no switch to flip, nothing to delete", async () => {
    const fetchMock = api([coupon('SPRING20')], { 'GET /api/me/subscription': () => jsonResponse(200, subscription('starter', { status: 'canceled' })) });
    open();
    expect(await screen.findByRole('link', { name: 'Choose a plan to create coupons' })).toHaveAttribute('href', '/dashboard/creator');
    const table = await findTable();
    expect(within(table).getByRole('switch', { name: 'SPRING20 active' })).toBeDisabled();
    expect(within(table).queryByRole('button', { name: 'Delete SPRING20' })).not.toBeInTheDocument();
    expect(fetchMock.mock.calls.filter(([, init]) => (init?.method ?? 'GET') !== 'GET')).toEqual([]);
  });

  it('keeps the switch and Delete for a creator on a plan', async () => {
    api([coupon('SPRING20')], { 'GET /api/me/subscription': () => jsonResponse(200, subscription('starter')) });
    const { queryClient } = open();
    await planLoaded(queryClient);
    const table = await findTable();
    expect(within(table).getByRole('switch', { name: 'SPRING20 active' })).toBeEnabled();
    expect(within(table).getByRole('button', { name: 'Delete SPRING20' })).toBeEnabled();
  });
});
