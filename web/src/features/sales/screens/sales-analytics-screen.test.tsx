import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toast } from '@/components/ui/toaster.tsx';
import { paths } from '@/lib/paths.ts';
import { callsTo, errorResponse, fakeApi, jsonResponse, renderWithProviders, statCard } from '@/test/render.tsx';
import { spyOnToasts } from '@/test/toasts.ts';
import { salesMessages as m } from '../sales-messages.ts';
import { analytics30, analytics90, quietAnalytics, sale } from '../test/fixtures.ts';
import { SalesAnalyticsScreen } from './sales-analytics-screen.tsx';

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));
spyOnToasts();
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const analyticsAt = (path: string = paths.creator.analytics) => renderWithProviders(<SalesAnalyticsScreen />, { path });
const salesTab = `${paths.creator.analytics}?tab=sales`;

/** The table inside the scrolling region the Table primitive names. */
const tableNamed = (name: string) => within(screen.getByRole('region', { name })).getByRole('table');
const findTable = async (name: string) => within(await screen.findByRole('region', { name })).getByRole('table');
const rowsOf = (table: HTMLElement) => within(table).getAllByRole('row').slice(1);
const cellsOf = (row: HTMLElement) => within(row).getAllByRole('cell').map((cell) => cell.textContent);

describe('SalesAnalyticsScreen: Overview', () => {
  it("shows the period's revenue net of refunds, sales, refunds, the chart's caption and revenue by course", async () => {
    const api = fakeApi({ 'GET /api/creator/analytics?days=30': () => jsonResponse(200, analytics30) });
    analyticsAt();
    expect(await screen.findByRole('status')).toHaveTextContent(m.loadingFigures);

    await screen.findByRole('heading', { name: 'Revenue' });
    expect(statCard('Revenue')).toHaveTextContent('£120');
    expect(statCard('Revenue')).toHaveTextContent('Net of refunds · Last 30 days');
    expect(statCard('Sales')).toHaveTextContent('4');
    expect(statCard('Refunds')).toHaveTextContent('1');
    expect(
      screen.getByText('Revenue and sales per day from 1 Nov to 30 Nov: £120 from 4 sales, after 1 refund. The best day was 25 Nov, with £120 from 3 sales.'),
    ).toBeInTheDocument();

    expect(screen.getByRole('list', { name: 'Sales funnel' })).toHaveTextContent(/Course page views\s*40.*Checkouts started\s*8\s*20% of the step before.*Paid\s*4\s*50% of the step before/);
    const byCourse = tableNamed('Revenue by course');
    expect(rowsOf(byCourse).map(cellsOf)).toEqual([
      ['Watercolour for Beginners', '3', '£80'],
      ['Portraits in Ink', '1', '£40'],
    ]);
    expect(rowsOf(tableNamed('Coupon use')).map(cellsOf)).toEqual([['SPRING20', '2', '£16']]);
    expect(screen.getByRole('button', { name: 'Last 30 days' })).toHaveAttribute('aria-pressed', 'true');
    // The chart is decoration for assistive technology: its caption says it, nothing inside it takes focus.
    const figure = screen.getByRole('figure');
    expect(figure.querySelector('[aria-hidden="true"]')).not.toBeNull();
    expect(callsTo(api, 'GET', '/api/sales')).toHaveLength(0);
  });

  it('asks again with ?days=90 when the period changes, and shows that period', async () => {
    const api = fakeApi({
      'GET /api/creator/analytics?days=30': () => jsonResponse(200, analytics30),
      'GET /api/creator/analytics?days=90': () => jsonResponse(200, analytics90),
    });
    const { router } = analyticsAt();
    await screen.findByRole('heading', { name: 'Revenue' });

    await userEvent.click(screen.getByRole('button', { name: 'Last 90 days' }));
    await waitFor(() => expect(statCard('Revenue')).toHaveTextContent('£1,234.50'));
    expect(statCard('Revenue')).toHaveTextContent('Net of refunds · Last 90 days');
    expect(statCard('Sales')).toHaveTextContent('31');
    expect(screen.getByText(/No coupon was used in this period/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Your coupons' })).toHaveAttribute('href', '/dashboard/creator/coupons');
    expect(screen.getByRole('button', { name: 'Last 90 days' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: 'Last 30 days' })).toHaveAttribute('aria-pressed', 'false');
    expect(callsTo(api, 'GET', '/api/creator/analytics?days=90')).toHaveLength(1);
    expect(router.state.location.search).toBe('?days=90');
  });

  it("says 'No sales yet' with the way to a first sale when the creator has never sold", async () => {
    fakeApi({
      'GET /api/creator/analytics?days=30': () => jsonResponse(200, quietAnalytics(30)),
      'GET /api/sales': () => jsonResponse(200, { items: [], nextCursor: null }),
    });
    analyticsAt();
    expect(await screen.findByRole('heading', { name: 'No sales yet' })).toBeInTheDocument();
    expect(screen.getByText(/Put a price on a course and connect your Stripe account/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to My Courses' })).toHaveAttribute('href', paths.creator.courses);
    expect(screen.queryByRole('group', { name: 'Period' })).not.toBeInTheDocument();
  });

  it('says a quiet period was quiet, not that nothing was ever sold, and keeps the periods to pick from', async () => {
    fakeApi({
      'GET /api/creator/analytics?days=30': () => jsonResponse(200, quietAnalytics(30)),
      'GET /api/sales': () => jsonResponse(200, { items: [sale(1)], nextCursor: null }),
    });
    analyticsAt();
    expect(await screen.findByRole('heading', { name: 'No sales in the last 30 days' })).toBeInTheDocument();
    expect(screen.queryByText('No sales yet')).not.toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Period' })).toBeInTheDocument();
  });

  it("offers 'Try again' when the figures cannot be loaded, and shows them once they can", async () => {
    let fail = true;
    fakeApi({
      'GET /api/creator/analytics?days=30': () => (fail ? errorResponse(500, 'INTERNAL', 'boom') : jsonResponse(200, analytics30)),
    });
    analyticsAt();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(m.figuresFailed);
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    await screen.findByRole('heading', { name: 'Revenue' });
    expect(statCard('Revenue')).toHaveTextContent('£120');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('SalesAnalyticsScreen: Sales', () => {
  it('lists every sale with its date, buyer, course, amount, discount, coupon and status, and loads the next page', async () => {
    const api = fakeApi({
      'GET /api/sales': () =>
        jsonResponse(200, {
          items: [
            sale(1, { amount: 3_000, discount: 1_000, couponCode: 'AUTUMN25' }),
            sale(2, { status: 'refunded', courseTitle: 'Portraits in Ink', seats: 5 }),
            sale(3, { status: 'disputed' }),
            sale(5, { courseId: 'b-1', courseTitle: 'Painting kit', bundleId: 'b-1', amount: 5_000 }),
          ],
          nextCursor: 'page/2',
        }),
      'GET /api/sales?cursor=page%2F2': () => jsonResponse(200, { items: [sale(4)], nextCursor: null }),
    });
    analyticsAt(salesTab);
    expect(await screen.findByRole('status')).toHaveTextContent(m.loadingSales);
    const table = await findTable('Sales');
    expect(within(table).getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Date',
      'Buyer',
      'Course',
      'Amount',
      'Discount',
      'Coupon',
      'Status',
      'Actions',
    ]);
    expect(rowsOf(table).map(cellsOf)).toEqual([
      ['27 Nov 2026', 'buyer1@example.com', 'Watercolour for Beginners', '£30', '£10', 'AUTUMN25', 'Paid', 'Refund'],
      ['26 Nov 2026', 'buyer2@example.com', 'Portraits in InkTeam licence · 5 seats', '£40', '—None', '—None', 'Refunded', ''],
      ['25 Nov 2026', 'buyer3@example.com', 'Watercolour for Beginners', '£40', '—None', '—None', 'Disputed', ''],
      [expect.any(String), 'buyer5@example.com', 'Bundle: Painting kit', '£50', '—None', '—None', 'Paid', 'Refund'],
    ]);
    expect(screen.getAllByRole('button', { name: /^Refund / })).toHaveLength(2);
    expect(screen.getByRole('button', { name: "Refund buyer5@example.com's purchase of Bundle: Painting kit" })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await screen.findByText('buyer4@example.com');
    expect(rowsOf(table)).toHaveLength(5);
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(callsTo(api, 'GET', '/api/sales?cursor=page%2F2')).toHaveLength(1);
  });

  it('refunds a paid sale after a confirmation: the row turns Refunded, a toast says so, the figures are asked again', async () => {
    let refunded = false;
    const api = fakeApi({
      'GET /api/creator/analytics?days=30': () => jsonResponse(200, refunded ? { ...analytics30, revenue: 8_000, refunds: 2 } : analytics30),
      'GET /api/sales': () => jsonResponse(200, { items: [sale(1), sale(2)], nextCursor: null }),
      'POST /api/sales/order-1/refund': () => {
        refunded = true;
        return jsonResponse(200, sale(1, { status: 'refunded' }));
      },
    });
    analyticsAt();
    await screen.findByRole('heading', { name: 'Revenue' });
    await userEvent.click(screen.getByRole('tab', { name: 'Sales' }));
    const table = await findTable('Sales');

    await userEvent.click(screen.getByRole('button', { name: "Refund buyer1@example.com's purchase of Watercolour for Beginners" }));
    const question = screen.getByRole('alertdialog', { name: 'Refund this sale?' });
    expect(question).toHaveTextContent(
      'buyer1@example.com gets £40 back from your Stripe account and loses access to Watercolour for Beginners. Their progress is kept',
    );
    await userEvent.click(within(question).getByRole('button', { name: 'Cancel' }));
    expect(callsTo(api, 'POST', '/api/sales/order-1/refund')).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: "Refund buyer1@example.com's purchase of Watercolour for Beginners" }));
    await userEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Refund sale' }));

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Sale refunded', { description: 'buyer1@example.com gets £40 back.' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(cellsOf(rowsOf(table)[0]!)).toContain('Refunded');
    expect(within(rowsOf(table)[0]!).queryByRole('button')).not.toBeInTheDocument();
    expect(within(rowsOf(table)[1]!).getByRole('button', { name: /^Refund / })).toBeInTheDocument();
    // The row changed in place: the list was not read again.
    expect(callsTo(api, 'GET', '/api/sales')).toHaveLength(1);

    await userEvent.click(screen.getByRole('tab', { name: 'Overview' }));
    await waitFor(() => expect(statCard('Revenue')).toHaveTextContent('£80'));
    expect(callsTo(api, 'GET', '/api/creator/analytics?days=30')).toHaveLength(2);
  });

  it("toasts the server's reason when a refund is refused, and leaves the sale as it was", async () => {
    fakeApi({
      'GET /api/sales': () => jsonResponse(200, { items: [sale(1)], nextCursor: null }),
      'POST /api/sales/order-1/refund': () => errorResponse(409, 'CONFLICT', 'This sale is disputed: Stripe settles it, it cannot be refunded.'),
    });
    analyticsAt(salesTab);
    const table = await findTable('Sales');
    await userEvent.click(screen.getByRole('button', { name: /^Refund buyer1@example.com/ }));
    await userEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Refund sale' }));

    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('Error', { description: 'This sale is disputed: Stripe settles it, it cannot be refunded.' }),
    );
    expect(toast.success).not.toHaveBeenCalled();
    expect(cellsOf(rowsOf(table)[0]!)).toContain('Paid');
  });

  it("says 'No sales yet' on an empty list, and offers 'Try again' when it cannot be loaded", async () => {
    let fail = true;
    fakeApi({ 'GET /api/sales': () => (fail ? errorResponse(500, 'INTERNAL', 'boom') : jsonResponse(200, { items: [], nextCursor: null })) });
    analyticsAt(salesTab);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(m.salesFailed);
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'No sales yet' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to My Courses' })).toHaveAttribute('href', paths.creator.courses);
  });
});
