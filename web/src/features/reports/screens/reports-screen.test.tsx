import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toast } from '@/components/ui/toaster.tsx';
import { paths } from '@/lib/paths.ts';
import { onUpgradeRequest, type UpgradeRequest } from '@/lib/upgrade-requests.ts';
import { course } from '@/test/fixtures.ts';
import { callsTo, errorResponse, fakeApi, jsonResponse, renderWithProviders, statCard } from '@/test/render.tsx';
import { spyOnToasts } from '@/test/toasts.ts';
import { reportsMessages as m } from '../reports-messages.ts';
import { emptyReport, report } from '../test/fixtures.ts';
import { ReportsScreen } from './reports-screen.tsx';

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));
vi.mock('@/lib/save-file.ts', () => ({ saveLink: vi.fn() }));
spyOnToasts();
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const courses = { items: [course('c1', 'Watercolour for Beginners'), course('c2', 'Portraits in Ink')], nextCursor: null };
const reportsAt = (path: string = paths.creator.reports) => renderWithProviders(<ReportsScreen />, { path });

describe('ReportsScreen', () => {
  it("shows the first course's figures, its funnel with the drop-off and the quiz table", async () => {
    fakeApi({ 'GET /api/courses?limit=100': () => jsonResponse(200, courses), 'GET /api/creator/reports/courses/c1': () => jsonResponse(200, report) });
    reportsAt();
    await screen.findByRole('heading', { name: 'Enrolled' });
    expect(statCard('Enrolled')).toHaveTextContent('40');
    expect(statCard('Started')).toHaveTextContent('32');
    expect(statCard('Completed')).toHaveTextContent('12');
    expect(statCard('Completion rate')).toHaveTextContent('30%');
    const funnel = within(screen.getByRole('list', { name: m.funnel })).getAllByRole('listitem');
    expect(funnel.map((item) => item.textContent)).toEqual([
      '1. Brushes and paperReached 32 · Completed 308 enrolled never reached it',
      '2. WashesReached 22 · Completed 1810 fewer than the lesson before',
      '3. Check yourselfReached 15 · Completed 127 fewer than the lesson before',
    ]);
    expect(screen.getByText('Attempts 20 · Pass rate 60%')).toBeInTheDocument();
    const rows = within(screen.getByRole('table')).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell').map((c) => c.textContent))).toEqual([
      ['Which paper holds water best?', '20', '85%'],
      ['What is a wet-on-wet wash?', '20', '45%'],
    ]);
  });

  it('reads the course picked in the picker, and keeps it in the address', async () => {
    const api = fakeApi({
      'GET /api/courses?limit=100': () => jsonResponse(200, courses),
      'GET /api/creator/reports/courses/c1': () => jsonResponse(200, report),
      'GET /api/creator/reports/courses/c2': () => jsonResponse(200, { ...report, courseId: 'c2', title: 'Portraits in Ink', enrolled: 7 }),
    });
    const { router } = reportsAt();
    await screen.findByRole('heading', { name: 'Enrolled' });
    await userEvent.click(screen.getByRole('combobox', { name: m.coursePicker }));
    await userEvent.click(await screen.findByRole('option', { name: 'Portraits in Ink' }));
    await waitFor(() => expect(statCard('Enrolled')).toHaveTextContent('7'));
    expect(router.state.location.search).toBe('?course=c2');
    expect(callsTo(api, 'GET', '/api/creator/reports/courses/c2')).toHaveLength(1);
  });

  it('says there are no learners yet when nobody is enrolled or started', async () => {
    fakeApi({ 'GET /api/courses?limit=100': () => jsonResponse(200, courses), 'GET /api/creator/reports/courses/c1': () => jsonResponse(200, emptyReport) });
    reportsAt();
    expect(await screen.findByRole('heading', { name: m.noLearners })).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: m.funnel })).not.toBeInTheDocument();
  });

  it('says so when the creator has no course', async () => {
    fakeApi({ 'GET /api/courses?limit=100': () => jsonResponse(200, { items: [], nextCursor: null }) });
    reportsAt();
    expect(await screen.findByRole('heading', { name: m.noCourses })).toBeInTheDocument();
  });

  it("shows the page's Pro state when the server answers PLAN_REQUIRED", async () => {
    fakeApi({
      'GET /api/courses?limit=100': () => jsonResponse(200, courses),
      'GET /api/creator/reports/courses/c1': () => errorResponse(403, 'PLAN_REQUIRED', 'This is part of the Pro plan.', { requiredPlan: 'pro' }),
    });
    reportsAt();
    expect(await screen.findByRole('heading', { name: m.planTitle })).toBeInTheDocument();
    // The shared upgrade path (components/plan-gate.tsx): it asks for Pro, saying why.
    const asked: UpgradeRequest[] = [];
    const stop = onUpgradeRequest((request) => asked.push(request));
    await userEvent.click(screen.getByRole('button', { name: 'Upgrade to Pro' }));
    stop();
    expect(asked).toEqual([{ plan: 'pro', reason: m.planBody }]);
    // The exports are Pro too: not offered to fail on click.
    expect(screen.queryByRole('heading', { name: m.exports })).not.toBeInTheDocument();
  });

  it('offers to try again when the report fails, and shows it once it loads', async () => {
    let calls = 0;
    fakeApi({
      'GET /api/courses?limit=100': () => jsonResponse(200, courses),
      'GET /api/creator/reports/courses/c1': () => (++calls === 1 ? errorResponse(400, 'VALIDATION_FAILED', 'No.') : jsonResponse(200, report)),
    });
    reportsAt();
    expect(await screen.findByRole('alert')).toHaveTextContent(m.reportFailed);
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Enrolled' })).toBeInTheDocument();
  });

  it('downloads an export through its link and says how many rows it holds', async () => {
    const { saveLink } = await import('@/lib/save-file.ts');
    const api = fakeApi({
      'GET /api/courses?limit=100': () => jsonResponse(200, courses),
      'GET /api/creator/reports/courses/c1': () => jsonResponse(200, report),
      'GET /api/creator/exports/learners?format=csv&delivery=link': () => jsonResponse(200, { url: 'https://files.example/learners.csv', expiresAt: '2026-11-27T12:00:00.000Z', rows: 1234 }),
    });
    reportsAt();
    await userEvent.click(await screen.findByRole('button', { name: 'Exports: Learners (CSV)' }));
    await waitFor(() => expect(saveLink).toHaveBeenCalledWith('https://files.example/learners.csv', 'learners.csv'));
    expect(toast.success).toHaveBeenCalledWith(m.exportDone, { description: 'Learners: 1,234 rows downloaded.' });
    expect(callsTo(api, 'GET', '/api/creator/exports/learners?format=csv&delivery=link')).toHaveLength(1);
  });
});
