import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { License, ReportRow } from '@contracts/licenses.ts';
import { toast } from '@/components/ui/toaster.tsx';
import { paths } from '@/lib/paths.ts';
import { callsTo, errorResponse, fakeApi, jsonResponse, renderWithProviders } from '@/test/render.tsx';
import { spyOnToasts } from '@/test/toasts.ts';
import { leaderMessages } from '../leader-messages.ts';
import { license, reportRow } from '../test/fixtures.ts';
import { LeaderReportsScreen } from './leader-reports-screen.tsx';

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));
spyOnToasts();
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const m = leaderMessages.reports;
const REPORT = '/api/leader/reports';
const open = (search = '') => renderWithProviders(<LeaderReportsScreen />, { path: `${paths.leader.reports}${search}` });
const page = (items: ReportRow[], nextCursor: string | null = null) => () => jsonResponse(200, { items, nextCursor });

const licenses = [license('lic-2', 'Portraits in Ink'), license('lic-1', 'Watercolour for Beginners')];
const rows = [
  reportRow('ann@example.com', {
    progress: 100,
    lastActivity: '2026-11-23T10:00:00.000Z',
    completedAt: '2026-11-23T10:00:00.000Z',
    certificate: 'https://example.com/verify/cert-1',
  }),
  reportRow('bo@example.com', { licenseId: 'lic-2', courseTitle: 'Portraits in Ink', progress: 40, lastActivity: '2026-11-22T10:00:00.000Z' }),
  reportRow('dan@example.com', { status: 'revoked' }),
];

/** The API of a leader with these licences; `more` adds the report's answers, by URL. */
const api = (more: Parameters<typeof fakeApi>[0], items: License[] = licenses) =>
  fakeApi({ 'GET /api/leader/licenses': () => jsonResponse(200, { nextCursor: null, items }), ...more });

const findTable = async () => within(await screen.findByRole('region', { name: m.table })).getByRole('table');
const cellsOf = (row: HTMLElement) => within(row).getAllByRole('cell').map((cell) => cell.textContent);
const emailsShown = () =>
  within(screen.getByRole('region', { name: m.table }))
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[0]!.textContent);

async function choose(filter: string, option: string) {
  await userEvent.click(screen.getByRole('combobox', { name: filter }));
  await userEvent.click(await screen.findByRole('option', { name: option }));
}

describe('LeaderReportsScreen', () => {
  it("lists each member's course, seat status, progress, last activity, completion and certificate", async () => {
    api({ [`GET ${REPORT}`]: page(rows) });
    open();
    expect(await screen.findByRole('status')).toHaveTextContent(m.loading);
    const table = await findTable();

    expect(screen.getByRole('heading', { level: 1, name: m.title })).toBeInTheDocument();
    expect(within(table).getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Member',
      'Course',
      'Status',
      'Progress',
      'Last activity',
      'Completed',
      'Certificate',
    ]);
    expect(within(table).getAllByRole('row').slice(1).map(cellsOf)).toEqual([
      [
        'ann@example.com',
        'Watercolour for Beginners',
        'Active',
        '100%',
        '23 Nov 2026',
        '23 Nov 2026',
        'View the certificate of ann@example.com for Watercolour for Beginners (opens in a new tab)',
      ],
      ['bo@example.com', 'Portraits in Ink', 'Active', '40%', '22 Nov 2026', `—${m.notCompleted}`, `—${m.noCertificate}`],
      ['dan@example.com', 'Watercolour for Beginners', 'Removed', '0%', m.notStarted, `—${m.notCompleted}`, `—${m.noCertificate}`],
    ]);
    expect(screen.getByRole('progressbar', { name: 'bo@example.com in Portraits in Ink: 40% complete' })).toHaveAttribute('aria-valuenow', '40');
    const certificate = screen.getByRole('link', { name: /certificate of ann@example\.com/ });
    expect(certificate).toHaveAttribute('href', 'https://example.com/verify/cert-1');
    expect(certificate).toHaveAttribute('target', '_blank');
    expect(screen.getByText(m.showing(3))).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: m.more })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: m.download })).toBeEnabled();
  });

  it('asks for the filters in the address, and a new choice restarts from the first page with it', async () => {
    const fetchMock = api({
      [`GET ${REPORT}?licenseId=lic-1&status=revoked`]: page([rows[2]!], 'next-page'),
      [`GET ${REPORT}?licenseId=lic-1&status=revoked&progress=completed`]: page([rows[0]!]),
      [`GET ${REPORT}?status=revoked&progress=completed`]: page([rows[0]!, rows[1]!]),
    });
    const { router } = open('?license=lic-1&status=revoked');
    await findTable();
    expect(emailsShown()).toEqual(['dan@example.com']);
    expect(screen.getByRole('combobox', { name: m.license })).toHaveTextContent('Watercolour for Beginners');
    expect(screen.getByRole('combobox', { name: m.status })).toHaveTextContent('Removed');
    expect(screen.getByRole('combobox', { name: m.progress })).toHaveTextContent(m.all);

    await choose(m.progress, 'Completed');
    await waitFor(() => expect(emailsShown()).toEqual(['ann@example.com']));
    expect(router.state.location.search).toBe('?license=lic-1&status=revoked&progress=completed');
    // The new filters' first page: no cursor of the previous ones.
    expect(screen.queryByRole('button', { name: m.more })).not.toBeInTheDocument();

    await choose(m.license, m.allLicenses);
    await waitFor(() => expect(emailsShown()).toEqual(['ann@example.com', 'bo@example.com']));
    expect(router.state.location.search).toBe('?status=revoked&progress=completed');

    expect(fetchMock.mock.calls.map(([input]) => String(input)).filter((url) => url.startsWith(REPORT))).toEqual([
      `${REPORT}?licenseId=lic-1&status=revoked`,
      `${REPORT}?licenseId=lic-1&status=revoked&progress=completed`,
      `${REPORT}?status=revoked&progress=completed`,
    ]);

    // Back undoes the last choice: its rows show from the cache at once (and are asked for again behind them).
    await router.navigate(-1);
    expect(router.state.location.search).toBe('?license=lic-1&status=revoked&progress=completed');
    await waitFor(() => expect(emailsShown()).toEqual(['ann@example.com']));
    expect(screen.getByRole('combobox', { name: m.license })).toHaveTextContent('Watercolour for Beginners');
  });

  it("drops a licence from the address that is not one of the leader's", async () => {
    api({
      [`GET ${REPORT}?licenseId=lic-9`]: () => errorResponse(404, 'NOT_FOUND', 'No such licence.'),
      [`GET ${REPORT}`]: page(rows),
    });
    const { router } = open('?license=lic-9');
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(within(await findTable()).getAllByRole('row')).toHaveLength(4);
    expect(screen.getByRole('combobox', { name: m.license })).toHaveTextContent(m.allLicenses);
  });

  it('searches by part of an email once typing pauses', async () => {
    const fetchMock = api({
      [`GET ${REPORT}`]: page(rows),
      [`GET ${REPORT}?q=bo%40ex`]: page([rows[1]!]),
    });
    const { router } = open();
    await findTable();

    await userEvent.type(screen.getByRole('searchbox', { name: m.search }), ' bo@ex');
    await waitFor(() => expect(emailsShown()).toEqual(['bo@example.com']));
    expect(router.state.location.search).toBe('?q=bo%40ex');
    expect(screen.getByText(m.showing(1))).toBeInTheDocument();
    // One request for the pause, none per key.
    expect(callsTo(fetchMock, 'GET', `${REPORT}?q=bo%40ex`)).toHaveLength(1);
    expect(fetchMock.mock.calls.filter(([input]) => String(input).startsWith(`${REPORT}?`))).toHaveLength(1);
  });

  it("'Load more' asks for the next page with the cursor and adds its rows", async () => {
    const fetchMock = api({
      [`GET ${REPORT}?progress=in-progress`]: page([rows[1]!], 'cursor-2'),
      [`GET ${REPORT}?progress=in-progress&cursor=cursor-2`]: page([reportRow('eve@example.com', { progress: 10 })]),
    });
    open('?progress=in-progress');
    await findTable();
    expect(screen.getByText(m.showing(1))).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: m.more }));
    await waitFor(() => expect(emailsShown()).toEqual(['bo@example.com', 'eve@example.com']));
    expect(screen.getByText(m.showing(2))).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: m.more })).not.toBeInTheDocument();
    expect(callsTo(fetchMock, 'GET', `${REPORT}?progress=in-progress&cursor=cursor-2`)).toHaveLength(1);
  });

  it('says so when no member matches the filters, and clears them', async () => {
    api({
      [`GET ${REPORT}?progress=completed&q=zed`]: page([]),
      [`GET ${REPORT}`]: page(rows),
    });
    const { router } = open('?progress=completed&q=zed');
    expect(await screen.findByRole('heading', { name: m.noMatch.title })).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: m.download })).toBeDisabled();

    await userEvent.click(screen.getByRole('button', { name: m.noMatch.action }));
    expect(await findTable()).toBeInTheDocument();
    expect(router.state.location.search).toBe('');
    expect(screen.getByRole('searchbox', { name: m.search })).toHaveValue('');
    expect(screen.getByRole('combobox', { name: m.progress })).toHaveTextContent(m.all);
  });

  it('sends a leader without licences, or without members, to My Groups', async () => {
    api({ [`GET ${REPORT}`]: page([]) }, []);
    open();
    expect(await screen.findByRole('heading', { name: m.noTeam.title })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: m.noTeam.action })).toHaveAttribute('href', paths.leader.groups);
    expect(screen.queryByRole('search')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: m.download })).not.toBeInTheDocument();
  });

  it("offers 'Try again' when the report cannot be loaded", async () => {
    let fail = true;
    api({ [`GET ${REPORT}`]: () => (fail ? errorResponse(500, 'INTERNAL', 'boom') : jsonResponse(200, { items: rows, nextCursor: null })) });
    open();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(m.loadFailed);
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: m.retry }));
    expect(within(await findTable()).getAllByRole('row')).toHaveLength(4);
  });
});

describe('LeaderReportsScreen: Download CSV', () => {
  let downloads: { download: string; href: string }[];

  beforeEach(() => {
    downloads = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      downloads.push({ download: this.download, href: this.href });
    });
  });

  it('asks for every row of the filters as CSV with the access token, and saves the file at the link the server answers', async () => {
    let answer!: (response: Response) => void;
    const fetchMock = api({
      [`GET ${REPORT}?licenseId=lic-1&status=active`]: page([rows[0]!], 'more'),
      [`GET ${REPORT}?format=csv&delivery=link&licenseId=lic-1&status=active`]: () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    open('?license=lic-1&status=active');
    await findTable();

    await userEvent.click(screen.getByRole('button', { name: m.download }));
    const pending = await screen.findByRole('button', { name: m.downloading });
    expect(pending).toBeDisabled();
    const link = 'https://files.example/exports/leader-reports/lead/01.csv?X-Amz-Signature=abc';
    answer(jsonResponse(200, { url: link, expiresAt: '2026-11-21T10:15:00.000Z', rows: 1 }));

    await waitFor(() => expect(downloads).toEqual([{ download: m.fileName, href: link }]));
    const [call] = callsTo(fetchMock, 'GET', `${REPORT}?format=csv&delivery=link&licenseId=lic-1&status=active`);
    expect(call!.headers.get('Authorization')).toBe('Bearer access-token');
    expect(await screen.findByRole('button', { name: m.download })).toBeEnabled();
    expect(toast.error).not.toHaveBeenCalled();
  });

  it("toasts the server's reason when the file cannot be made", async () => {
    api({
      [`GET ${REPORT}`]: page(rows),
      [`GET ${REPORT}?format=csv&delivery=link`]: () => errorResponse(503, 'UPSTREAM_FAILED', 'The report is busy. Try again in a minute.'),
    });
    open();
    await findTable();
    await userEvent.click(screen.getByRole('button', { name: m.download }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Error', { description: 'The report is busy. Try again in a minute.' }));
    expect(downloads).toEqual([]);
    expect(screen.getByRole('button', { name: m.download })).toBeEnabled();
  });
});
