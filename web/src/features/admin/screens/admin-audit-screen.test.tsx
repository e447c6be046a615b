import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AuditEntry } from '@contracts/audit.ts';
import { callsTo, errorResponse, fakeApi, jsonResponse, renderWithProviders } from '@/test/render.tsx';
import { AdminAuditScreen } from './admin-audit-screen.tsx';

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const actor = { id: 'a1', email: 'root@example.com' };
const disabled: AuditEntry = { at: '2026-11-21T10:04:00.000Z', actor, action: 'account-disabled', target: { kind: 'user', id: 'u1', email: 'lee@example.com' } };
const moved: AuditEntry = { at: '2026-11-20T09:00:00.000Z', actor, action: 'role-changed', target: { kind: 'user', id: 'u2', email: 'ann@example.com' }, details: { from: 'learner', to: 'leader' } };
const campaign: AuditEntry = { at: '2026-11-19T08:00:00.000Z', actor, action: 'campaign-sent', target: { kind: 'campaign', id: 'c1' }, details: { subject: 'Winter news', recipient: 'learners' } };

// jsdom applies no CSS: a row holds its wide columns and the folded line a phone shows alike.
const rows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);

describe('AdminAuditScreen', () => {
  it('lists admin actions newest first with the time, admin, action and target, and loads more', async () => {
    const api = fakeApi({
      'GET /api/admin/audit': () => jsonResponse(200, { items: [disabled, moved], nextCursor: 'next-1' }),
      'GET /api/admin/audit?cursor=next-1': () => jsonResponse(200, { items: [campaign], nextCursor: null }),
    });
    renderWithProviders(<AdminAuditScreen />);
    expect(await screen.findByRole('status')).toHaveTextContent('Loading the audit log...');
    await screen.findByText('Account disabled');
    const first = rows()[0]!;
    expect(within(first).getAllByText('root@example.com', { exact: false })).not.toHaveLength(0);
    expect(within(first).getByText('lee@example.com')).toBeInTheDocument();
    expect(within(first).getAllByText(/21 Nov 2026/)).not.toHaveLength(0);
    expect(within(rows()[1]!).getByText('Role changed')).toBeInTheDocument();
    expect(within(rows()[1]!).getByText('Learner to Group leader')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await screen.findByText('Campaign "Winter news"');
    expect(rows()).toHaveLength(3);
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(callsTo(api, 'GET', '/api/admin/audit?cursor=next-1')).toHaveLength(1);
  });

  it('filters by action, and says when none of that action were taken', async () => {
    const api = fakeApi({
      'GET /api/admin/audit': () => jsonResponse(200, { items: [disabled, moved], nextCursor: null }),
      'GET /api/admin/audit?action=support-replied': () => jsonResponse(200, { items: [], nextCursor: null }),
    });
    renderWithProviders(<AdminAuditScreen />);
    await screen.findByText('Account disabled');
    await userEvent.click(screen.getByRole('combobox', { name: 'Action' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Support reply' }));
    expect(await screen.findByText('No "Support reply" entries')).toBeInTheDocument();
    expect(callsTo(api, 'GET', '/api/admin/audit?action=support-replied')).toHaveLength(1);
  });

  it('says when no admin has acted yet, and offers to retry a failed load', async () => {
    let fail = true;
    fakeApi({ 'GET /api/admin/audit': () => (fail ? errorResponse(500, 'INTERNAL', 'boom') : jsonResponse(200, { items: [], nextCursor: null })) });
    renderWithProviders(<AdminAuditScreen />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load the audit log');
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No admin actions yet')).toBeInTheDocument();
  });
});
