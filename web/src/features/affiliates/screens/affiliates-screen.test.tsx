import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Affiliate, Commission } from '@contracts/affiliates.ts';
import type { SubscriptionResponse } from '@contracts/billing.ts';
import { toast } from '@/components/ui/toaster.tsx';
import { paths } from '@/lib/paths.ts';
import { onUpgradeRequest, type UpgradeRequest } from '@/lib/upgrade-requests.ts';
import { callsTo, errorResponse, fakeApi, findToast, jsonResponse, renderWithProviders } from '@/test/render.tsx';
import { spyOnToasts } from '@/test/toasts.ts';
import { affiliatesMessages as m } from '../affiliates-messages.ts';
import { affiliate, commission, courses, subscription } from '../test/fixtures.ts';
import { AffiliatesScreen } from './affiliates-screen.tsx';

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));
spyOnToasts();
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const open = () => renderWithProviders(<AffiliatesScreen />, { path: paths.creator.affiliates });

const findTable = async () => within(await screen.findByRole('region', { name: 'Affiliates' })).getByRole('table');
/** Each affiliate's first row: its figures (the second holds its link and buttons). */
const figureRows = (table: HTMLElement) => within(table).getAllByRole('row').slice(1).filter((_, index) => index % 2 === 0);
const cellsOf = (row: HTMLElement) => within(row).getAllByRole('cell').map((cell) => cell.textContent);

/** The API of a creator on `plan` with these affiliates; `more` adds or overrides routes. */
const api = (items: Affiliate[], more: Parameters<typeof fakeApi>[0] = {}, plan: SubscriptionResponse = subscription('pro')) =>
  fakeApi({
    'GET /api/affiliates': () => jsonResponse(200, { items, nextCursor: null }),
    'GET /api/me/subscription': () => jsonResponse(200, plan),
    'GET /api/courses?limit=100': () => jsonResponse(200, courses),
    ...more,
  });

async function openAddDialog() {
  await userEvent.click(screen.getByRole('button', { name: m.add }));
  return screen.findByRole('dialog', { name: m.form.title });
}

describe('AffiliatesScreen: the list', () => {
  it("lists each affiliate's name, email, code, commission, clicks, sales and earnings, with its link", async () => {
    api([
      affiliate('aff-1', 'Ann Smith', { commissionPercent: 12.5, clicks: 1_204, sales: 9, pending: 1_250, approved: 2_500, paid: 10_000 }),
      affiliate('aff-2', 'Bo Jones', { sales: 2, paid: 1_600, clawedBack: 800 }),
    ]);
    open();
    expect(await screen.findByRole('status')).toHaveTextContent(m.loading);
    const table = await findTable();

    expect(within(table).getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Affiliate',
      'Code',
      'Commission',
      'Clicks',
      'Sales',
      'Pending',
      'Approved',
      'Paid',
    ]);
    expect(figureRows(table).map(cellsOf)).toEqual([
      ['Ann Smithann@example.com', 'AFF1XXXX', '12.5%', '1,204', '9', '£12.50', '£25', '£100'],
      ['Bo Jonesbo@example.com', 'AFF2XXXX', '20%', '0', '2', '£0', '£0', '£16Owes back £8'],
    ]);
    expect(screen.getByRole('textbox', { name: 'Link of Ann Smith' })).toHaveValue('http://localhost:5173/api/public/r/AFF1XXXX?to=/u/ada-lovelace');
    expect(screen.getByRole('textbox', { name: 'Link of Ann Smith' })).toHaveAttribute('readonly');
    expect(screen.getByRole('button', { name: 'Copy link for Bo Jones' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Commissions of Bo Jones' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Pay out Ann Smith' })).toHaveTextContent('Pay out £25');
    expect(screen.getByRole('heading', { level: 1, name: 'Affiliates' })).toBeInTheDocument();
    expect(screen.getByText(m.description)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: m.add })).toBeEnabled();
    expect(screen.queryByTestId('pro-plan-card')).not.toBeInTheDocument();
  });

  it('explains how affiliates work when there are none yet, with Add affiliate at hand', async () => {
    api([]);
    open();
    expect(await screen.findByRole('heading', { name: m.empty.title })).toBeInTheDocument();
    expect(screen.getByText(/they get their own link by email/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: m.add })).toBeEnabled();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it("offers 'Try again' when the list cannot be loaded, and shows it once it can", async () => {
    let fail = true;
    api([], {
      'GET /api/affiliates': () => (fail ? errorResponse(500, 'INTERNAL', 'boom') : jsonResponse(200, { nextCursor: null, items: [affiliate('aff-1', 'Ann Smith')] })),
    });
    open();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(m.loadFailed);
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(figureRows(await findTable())).toHaveLength(1);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('AffiliatesScreen: the Pro plan', () => {
  it.each([
    ['on Starter', subscription('starter')],
    ['never subscribed', subscription(null)],
    ['whose Pro plan ended', subscription('pro', { status: 'canceled', subscribed: false })],
  ])('shows a creator %s what Pro unlocks and the way to upgrade, and no Add affiliate', async (_, plan) => {
    api([], {}, plan);
    const { router } = open();
    expect(await screen.findByRole('heading', { level: 2, name: m.plan.title })).toBeInTheDocument();
    const card = screen.getByTestId('pro-plan-card');
    expect(within(card).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Affiliate links that track clicks and sales',
      'Commissions held until refunds are no longer possible',
      'One-click payouts with a CSV',
    ]);
    expect(card).toHaveTextContent('Pro is £67 a month.');
    expect(screen.queryByRole('button', { name: m.add })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: m.empty.title })).not.toBeInTheDocument();

    // 'Upgrade to Pro' asks for the creator area's upgrade path (Pro's checkout or the billing portal), saying why.
    const asked: UpgradeRequest[] = [];
    const stop = onUpgradeRequest((request) => asked.push(request));
    await userEvent.click(within(card).getByRole('button', { name: m.plan.upgrade }));
    stop();
    expect(asked).toEqual([{ plan: 'pro', reason: expect.stringContaining(m.plan.title) as string }]);
    expect(router.state.location.pathname).toBe(paths.creator.affiliates);
  });

  it('still lists the affiliates a creator added while on Pro', async () => {
    api([affiliate('aff-1', 'Ann Smith', { approved: 2_500 })], {}, subscription('starter'));
    open();
    expect(await screen.findByTestId('pro-plan-card')).toHaveTextContent(m.plan.earlier);
    expect(figureRows(await findTable()).map((row) => cellsOf(row)[0])).toEqual(['Ann Smithann@example.com']);
    expect(screen.queryByRole('button', { name: m.add })).not.toBeInTheDocument();
  });

  it('still pays out commissions approved while on Pro (money owed needs no plan)', async () => {
    api([affiliate('aff-1', 'Ann Smith', { approved: 2_500 })], {}, subscription('starter'));
    open();
    await findTable();
    expect(await screen.findByRole('button', { name: 'Pay out Ann Smith' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'Pay out Pro' })).not.toBeInTheDocument();
  });
});

describe('AffiliatesScreen: adding an affiliate', () => {
  it('adds an affiliate with the contract body (30-day windows by default) and puts it at the top of the list', async () => {
    const fetchMock = api([affiliate('aff-1', 'Ann Smith')], {
      'POST /api/affiliates': () => jsonResponse(201, affiliate('aff-2', 'Cleo Park', { email: 'cleo@example.com', commissionPercent: 12.5, holdDays: 14 })),
    });
    open();
    await findTable();
    const dialog = await openAddDialog();

    expect(dialog).toHaveTextContent('We email the affiliate their link');
    const name = within(dialog).getByRole('textbox', { name: /Name/ });
    expect(name).toHaveFocus();
    expect(within(dialog).getByRole('textbox', { name: 'Cookie window (days)' })).toHaveValue('30');
    expect(within(dialog).getByRole('textbox', { name: 'Refund hold (days)' })).toHaveValue('30');
    await userEvent.type(name, 'Cleo Park');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Email/ }), 'Cleo@Example.com');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Commission/ }), '12.5');
    await userEvent.clear(within(dialog).getByRole('textbox', { name: 'Refund hold (days)' }));
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Refund hold (days)' }), '14');
    await userEvent.click(within(dialog).getByRole('button', { name: m.form.submit }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(callsTo(fetchMock, 'POST', '/api/affiliates').map((call) => call.body)).toEqual([
      { name: 'Cleo Park', email: 'cleo@example.com', commissionPercent: 12.5, cookieDays: 30, holdDays: 14 },
    ]);
    expect(toast.success).toHaveBeenCalledWith(m.form.added, { description: 'Cleo Park gets their link by email, and earns 12.5% of each sale it brings.' });
    const table = await findTable();
    expect(figureRows(table).map((row) => cellsOf(row)[0])).toEqual(['Cleo Parkcleo@example.com', 'Ann Smithann@example.com']);
    expect(callsTo(fetchMock, 'GET', '/api/affiliates')).toHaveLength(1);
  });

  it('checks the form before sending: nothing is sent until each field is right', async () => {
    const fetchMock = api([]);
    open();
    await screen.findByRole('heading', { name: m.empty.title });
    const dialog = await openAddDialog();

    await userEvent.type(within(dialog).getByRole('textbox', { name: /Email/ }), 'not-an-email');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Commission/ }), '95');
    await userEvent.clear(within(dialog).getByRole('textbox', { name: 'Cookie window (days)' }));
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Cookie window (days)' }), '0');
    await userEvent.clear(within(dialog).getByRole('textbox', { name: 'Refund hold (days)' }));
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Refund hold (days)' }), '7.5');
    await userEvent.click(within(dialog).getByRole('button', { name: m.form.submit }));

    expect(await within(dialog).findByText('Give the affiliate a name.')).toBeInTheDocument();
    expect(within(dialog).getByText('Enter an email address, such as sam@example.com.')).toBeInTheDocument();
    expect(within(dialog).getByText('A commission is 1 to 90 percent.')).toBeInTheDocument();
    expect(within(dialog).getByText('A whole number of days from 1 to 365.')).toBeInTheDocument();
    expect(within(dialog).getByText('A whole number of days from 0 to 90.')).toBeInTheDocument();
    expect(within(dialog).getByRole('textbox', { name: /Name/ })).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).getByRole('textbox', { name: /Name/ })).toHaveFocus();
    expect(callsTo(fetchMock, 'POST', '/api/affiliates')).toHaveLength(0);
  });

  it('says on the email field that the email is an affiliate already (409 CONFLICT), and keeps the dialog open', async () => {
    api([affiliate('aff-1', 'Ann Smith')], {
      'POST /api/affiliates': () => errorResponse(409, 'CONFLICT', 'An affiliate with this email exists.'),
    });
    open();
    await findTable();
    const dialog = await openAddDialog();
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Name/ }), 'Ann Again');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Email/ }), 'ann@example.com');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Commission/ }), '10');
    await userEvent.click(within(dialog).getByRole('button', { name: m.form.submit }));

    expect(await within(dialog).findByText(m.form.taken)).toBeInTheDocument();
    const email = within(dialog).getByRole('textbox', { name: /Email/ });
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveFocus();
    expect(screen.getByRole('dialog', { name: m.form.title })).toBeInTheDocument();
    expect(toast.success).not.toHaveBeenCalled();
  });

  it('shows the reason and the way to upgrade when the server says the creator is not on Pro (403 FORBIDDEN)', async () => {
    api([], { 'POST /api/affiliates': () => errorResponse(403, 'FORBIDDEN', 'Affiliates are part of the Pro plan.') });
    open();
    await screen.findByRole('heading', { name: m.empty.title });
    const dialog = await openAddDialog();
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Name/ }), 'Ann Smith');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Email/ }), 'ann@example.com');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Commission/ }), '10');
    await userEvent.click(within(dialog).getByRole('button', { name: m.form.submit }));

    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Affiliates are part of the Pro plan.');
    expect(within(alert).getByRole('link', { name: m.plan.upgrade })).toHaveAttribute('href', paths.creator.dashboard);
  });
});

describe('AffiliatesScreen: a sender to verify', () => {
  it('shows the verification panel in the dialog when the server needs a verified email first (403 EMAIL_NOT_VERIFIED)', async () => {
    const message = 'Verify your email address first: the platform sends invitations and messages on your behalf only once your own address is verified.';
    api([], { 'POST /api/affiliates': () => errorResponse(403, 'EMAIL_NOT_VERIFIED', message) });
    open();
    await screen.findByRole('heading', { name: m.empty.title });
    const dialog = await openAddDialog();
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Name/ }), 'Ann Smith');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Email/ }), 'ann@example.com');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Commission/ }), '10');
    await userEvent.click(within(dialog).getByRole('button', { name: m.form.submit }));

    const panel = await within(dialog).findByRole('region', { name: 'Verify your email' });
    expect(panel).toHaveTextContent(`${message} Then press ${m.form.submit} again.`);
    expect(within(panel).getByRole('button', { name: 'Send verification code' })).toBeInTheDocument();
    expect(within(dialog).queryByRole('link', { name: m.plan.upgrade })).not.toBeInTheDocument();
    expect(toast.success).not.toHaveBeenCalled();
  });
});

describe('AffiliatesScreen: sharing a link', () => {
  it("copies the link to the creator's page, or to one of their published courses", async () => {
    api([affiliate('aff-1', 'Ann Smith')]);
    open();
    await findTable();
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');

    await userEvent.click(screen.getByRole('button', { name: 'Copy link for Ann Smith' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('http://localhost:5173/api/public/r/AFF1XXXX?to=/u/ada-lovelace'));
    expect(toast.success).toHaveBeenCalledWith(m.link.copied, { description: 'http://localhost:5173/api/public/r/AFF1XXXX?to=/u/ada-lovelace' });

    const to = screen.getByRole('combobox', { name: 'Link to (Ann Smith)' });
    await waitFor(() => expect(within(to).getAllByRole('option').map((option) => option.textContent)).toEqual(['Your page', 'Watercolour for Beginners', 'Portraits in Ink']));
    await userEvent.selectOptions(to, 'Portraits in Ink');
    const courseLink = `${window.location.origin}/api/public/r/AFF1XXXX?to=/c/course-2`;
    expect(screen.getByRole('textbox', { name: 'Link of Ann Smith' })).toHaveValue(courseLink);
    await userEvent.click(screen.getByRole('button', { name: 'Copy link for Ann Smith' }));
    await waitFor(() => expect(writeText).toHaveBeenLastCalledWith(courseLink));
  });

  it('selects the link to copy by hand when the clipboard refuses', async () => {
    api([affiliate('aff-1', 'Ann Smith')]);
    open();
    await findTable();
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new DOMException('Denied', 'NotAllowedError'));

    await userEvent.click(screen.getByRole('button', { name: 'Copy link for Ann Smith' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Error', { description: m.link.copyFailed }));
    expect(screen.getByRole('textbox', { name: 'Link of Ann Smith' })).toHaveFocus();
  });
});

describe('AffiliatesScreen: commissions', () => {
  it("lists an affiliate's commissions with their status, and marks a clawback", async () => {
    const items: Commission[] = [
      commission('order-4', { status: 'pending', courseTitle: 'Portraits in Ink', orderAmount: 2_500, amount: 500, approveAt: '2026-12-20T10:00:00.000Z' }),
      commission('order-3', { status: 'approved', approveAt: '2026-11-02T10:00:00.000Z' }),
      commission('order-2', { status: 'paid', approveAt: '2026-10-02T10:00:00.000Z', paidAt: '2026-10-05T10:00:00.000Z', clawback: true }),
      commission('order-1', { status: 'void', approveAt: '2026-08-02T10:00:00.000Z' }),
    ];
    const fetchMock = api([affiliate('aff-1', 'Ann Smith', { approved: 800 })], {
      'GET /api/affiliates/aff-1/commissions': () => jsonResponse(200, { items, nextCursor: null }),
    });
    open();
    await findTable();
    await userEvent.click(screen.getByRole('button', { name: 'Commissions of Ann Smith' }));

    const dialog = await screen.findByRole('dialog', { name: 'Commissions of Ann Smith' });
    const table = await within(dialog).findByRole('table');
    expect(within(table).getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Course', 'Order', 'Commission', 'Status', 'Hold ends']);
    expect(within(table).getAllByRole('row').slice(1).map(cellsOf)).toEqual([
      ['Portraits in InkSold 20 Nov 2026', '£25', '£5', 'Pending', '20 Dec 2026'],
      ['Watercolour for BeginnersSold 20 Nov 2026', '£40', '£8', 'Approved', '2 Nov 2026'],
      ['Watercolour for BeginnersSold 20 Nov 2026', '£40', '£8', 'PaidClawback', '2 Oct 2026Paid 5 Oct 2026'],
      ['Watercolour for BeginnersSold 20 Nov 2026', '£40', '£8', 'Void', '2 Aug 2026'],
    ]);
    expect(dialog).toHaveTextContent(m.commissions.clawbackNote);
    expect(callsTo(fetchMock, 'GET', '/api/affiliates/aff-1/commissions')).toHaveLength(1);

    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Commissions of Ann Smith' })).toHaveFocus();
  });

  it('loads the next page of commissions on "Load more" (by keyboard), until there is none', async () => {
    const fetchMock = api([affiliate('aff-1', 'Ann Smith')], {
      'GET /api/affiliates/aff-1/commissions': () => jsonResponse(200, { items: [commission('order-2')], nextCursor: 'next/1' }),
      'GET /api/affiliates/aff-1/commissions?cursor=next%2F1': () => jsonResponse(200, { items: [commission('order-1', { status: 'void' })], nextCursor: null }),
    });
    open();
    await findTable();
    await userEvent.click(screen.getByRole('button', { name: 'Commissions of Ann Smith' }));
    const dialog = await screen.findByRole('dialog', { name: 'Commissions of Ann Smith' });
    const table = await within(dialog).findByRole('table');
    expect(within(table).getAllByRole('row')).toHaveLength(2);
    within(dialog).getByRole('button', { name: 'Load more' }).focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(3));
    expect(within(dialog).queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(callsTo(fetchMock, 'GET', '/api/affiliates/aff-1/commissions?cursor=next%2F1')).toHaveLength(1);
  });

  it('says so when an affiliate has no commissions yet', async () => {
    api([affiliate('aff-1', 'Ann Smith')], { 'GET /api/affiliates/aff-1/commissions': () => jsonResponse(200, { items: [], nextCursor: null }) });
    open();
    await findTable();
    await userEvent.click(screen.getByRole('button', { name: 'Commissions of Ann Smith' }));
    const dialog = await screen.findByRole('dialog', { name: 'Commissions of Ann Smith' });
    expect(await within(dialog).findByText(m.commissions.empty('Ann Smith'))).toBeInTheDocument();
    expect(within(dialog).queryByRole('table')).not.toBeInTheDocument();
  });
});

describe('AffiliatesScreen: paying out', () => {
  const csv = 'affiliate,email,amount,commissions,payoutId\nAnn Smith,ann@example.com,25.00,2,po-1\n';
  const link = 'https://files.example/exports/affiliate-payouts/aff-1/po-1/x.csv?X-Amz-Signature=abc';
  const fileUrl = (affiliateId: string, payoutId: string) => `GET /api/affiliates/${affiliateId}/payouts/${payoutId}?format=csv&delivery=link`;
  let downloads: { download: string; href: string }[];

  beforeEach(() => {
    downloads = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      downloads.push({ download: this.download, href: this.href });
    });
  });

  it('marks the approved commissions paid after the confirmation, downloads the CSV through its link and loads the figures again', async () => {
    let paid = false;
    let answerFile: (() => void) | undefined;
    const fetchMock = api([], {
      'GET /api/affiliates': () =>
        jsonResponse(200, { nextCursor: null, items: [affiliate('aff-1', 'Ann Smith', paid ? { approved: 0, paid: 2_500 } : { approved: 2_500 }), affiliate('aff-2', 'Bo Jones', { approved: 900 })] }),
      'POST /api/affiliates/aff-1/payouts': () => {
        paid = true;
        return jsonResponse(200, { payoutId: 'po-1', paidAmount: 2_500, commissions: 2, csv });
      },
      // The server writes the file a page at a time: held here, so the dialog's waiting can be seen.
      [fileUrl('aff-1', 'po-1')]: () => new Promise<Response>((resolve) => (answerFile = () => resolve(jsonResponse(200, { url: link, expiresAt: '2026-11-25T10:15:00.000Z', rows: 2 })))),
    });
    open();
    await findTable();

    await userEvent.click(screen.getByRole('button', { name: 'Pay out Ann Smith' }));
    let question = screen.getByRole('alertdialog', { name: 'Pay out £25 to Ann Smith?' });
    expect(question).toHaveTextContent("This marks Ann Smith's approved commissions (£25) as paid and downloads a CSV to pay them from.");
    await userEvent.click(within(question).getByRole('button', { name: 'Cancel' }));
    expect(callsTo(fetchMock, 'POST', '/api/affiliates/aff-1/payouts')).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'Pay out Ann Smith' }));
    question = screen.getByRole('alertdialog', { name: 'Pay out £25 to Ann Smith?' });
    await userEvent.click(within(question).getByRole('button', { name: m.payout.action }));

    // Recorded, the file still being written: the dialog stays, its action busy, nothing downloaded yet.
    await waitFor(() => expect(answerFile).toBeDefined());
    expect(screen.getByRole('alertdialog')).toBeInTheDocument();
    expect(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Cancel' })).toBeDisabled();
    expect(downloads).toEqual([]);
    answerFile!();

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(m.payout.done, { description: '£25 to Ann Smith: 2 commissions marked paid. The CSV is in your downloads.' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    const [call] = callsTo(fetchMock, 'POST', '/api/affiliates/aff-1/payouts');
    expect(call!.body).toBeUndefined();
    expect(call!.headers.get('Idempotency-Key')).toMatch(/^[\w.:-]{8,200}$/);
    expect(downloads).toEqual([{ download: `affiliate-payout-AFF1XXXX-${new Date().toLocaleDateString('en-CA')}.csv`, href: link }]);

    await waitFor(() => expect(screen.getByRole('button', { name: 'Pay out Ann Smith' })).toBeDisabled());
    expect(callsTo(fetchMock, 'GET', '/api/affiliates')).toHaveLength(2);
    expect(cellsOf(figureRows(await findTable())[0]!).slice(5)).toEqual(['£0', '£0', '£25']);
  });

  it('says so when the payout is recorded but its file fails, and "Try again" asks for the file only', async () => {
    let fileAnswers = 0;
    const fetchMock = api([affiliate('aff-1', 'Ann Smith', { approved: 2_500 })], {
      'POST /api/affiliates/aff-1/payouts': () => jsonResponse(200, { payoutId: 'po-1', paidAmount: 2_500, commissions: 2, csv }),
      [fileUrl('aff-1', 'po-1')]: () =>
        ++fileAnswers === 1 ? errorResponse(503, 'SERVICE_UNAVAILABLE', 'Storage is busy.') : jsonResponse(200, { url: link, expiresAt: '2026-11-25T10:15:00.000Z', rows: 2 }),
    });
    open();
    await findTable();
    await userEvent.click(screen.getByRole('button', { name: 'Pay out Ann Smith' }));
    await userEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: m.payout.action }));

    const failed = await findToast('£25 to Ann Smith: 2 commissions marked paid. Storage is busy.');
    expect(failed).toHaveTextContent(m.payout.downloadFailed);
    expect(downloads).toEqual([]);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());

    // A plain click: jsdom has no pointer capture, which sonner's swipe handling asks for on pointerdown.
    fireEvent.click(within(failed).getByRole('button', { name: m.payout.retry }));
    await waitFor(() => expect(downloads).toEqual([{ download: expect.stringMatching(/^affiliate-payout-AFF1XXXX-/) as string, href: link }]));
    expect(toast.success).toHaveBeenCalledWith(m.payout.done, { description: '£25 to Ann Smith: 2 commissions marked paid. The CSV is in your downloads.' });
    // The payout was made once; only its file was asked for again.
    expect(callsTo(fetchMock, 'POST', '/api/affiliates/aff-1/payouts')).toHaveLength(1);
    expect(fileAnswers).toBe(2);
  });

  it('sends a fresh Idempotency-Key with each payout', async () => {
    const fetchMock = api([affiliate('aff-1', 'Ann Smith', { approved: 2_500 }), affiliate('aff-2', 'Bo Jones', { approved: 900 })], {
      'POST /api/affiliates/aff-1/payouts': () => jsonResponse(200, { payoutId: 'po-1', paidAmount: 2_500, commissions: 2, csv }),
      'POST /api/affiliates/aff-2/payouts': () => jsonResponse(200, { payoutId: 'po-2', paidAmount: 900, commissions: 1, csv }),
      [fileUrl('aff-1', 'po-1')]: () => jsonResponse(200, { url: link, expiresAt: '2026-11-25T10:15:00.000Z', rows: 2 }),
      [fileUrl('aff-2', 'po-2')]: () => jsonResponse(200, { url: link, expiresAt: '2026-11-25T10:15:00.000Z', rows: 1 }),
    });
    open();
    await findTable();
    for (const name of ['Ann Smith', 'Bo Jones']) {
      await userEvent.click(screen.getByRole('button', { name: `Pay out ${name}` }));
      await userEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: m.payout.action }));
      await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    }
    const keys = [...callsTo(fetchMock, 'POST', '/api/affiliates/aff-1/payouts'), ...callsTo(fetchMock, 'POST', '/api/affiliates/aff-2/payouts')].map((call) =>
      call.headers.get('Idempotency-Key'),
    );
    expect(keys).toHaveLength(2);
    expect(new Set(keys).size).toBe(2);
  });

  it('offers no payout while nothing is approved', async () => {
    api([affiliate('aff-1', 'Ann Smith', { pending: 1_200, paid: 500 })]);
    open();
    await findTable();
    const button = screen.getByRole('button', { name: 'Pay out Ann Smith' });
    expect(button).toBeDisabled();
    expect(button).toHaveTextContent(/^Pay out$/);
  });

  it('toasts the reason when the payout is refused, and downloads nothing', async () => {
    api([affiliate('aff-1', 'Ann Smith', { approved: 2_500 })], {
      'POST /api/affiliates/aff-1/payouts': () => errorResponse(409, 'CONFLICT', 'A payout of this affiliate is already under way.'),
    });
    open();
    await findTable();
    await userEvent.click(screen.getByRole('button', { name: 'Pay out Ann Smith' }));
    await userEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: m.payout.action }));

    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Error', { description: 'A payout of this affiliate is already under way.' }));
    expect(downloads).toEqual([]);
    expect(toast.success).not.toHaveBeenCalled();
  });
});
