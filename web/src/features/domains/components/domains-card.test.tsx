import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DomainView } from '@contracts/domains.ts';
import { toast } from '@/components/ui/toaster.tsx';
import { paths } from '@/lib/paths.ts';
import { callsTo, errorResponse, fakeApi, jsonResponse, renderWithProviders } from '@/test/render.tsx';
import { subscription } from '@/test/fixtures.ts';
import { spyOnToasts } from '@/test/toasts.ts';
import { domainsMessages as m } from '../domains-messages.ts';
import { DomainsCard } from './domains-card.tsx';

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));
spyOnToasts();
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const domain = (hostname: string, changes: Partial<DomainView> = {}): DomainView => ({
  hostname,
  status: 'pending_verification',
  verification: { type: 'TXT', name: `_courseplatform-challenge.${hostname}`, value: 'tok-123' },
  target: { type: 'CNAME', value: 'edge.platform.example' },
  problem: null,
  failureReason: null,
  flaggedAt: null,
  flagReason: null,
  createdAt: '2026-11-20T10:00:00.000Z',
  checkedAt: null,
  activatedAt: null,
  ...changes,
});

const api = (items: DomainView[], tier: 'pro' | 'starter' = 'pro', more: Parameters<typeof fakeApi>[0] = {}) =>
  fakeApi({ 'GET /api/domains': () => jsonResponse(200, { items }), 'GET /api/me/subscription': () => jsonResponse(200, subscription(tier)), ...more });
const open = () => renderWithProviders(<DomainsCard />, { path: paths.creator.domains });
const item = async (hostname: string) => screen.findByRole('listitem', { name: hostname });

describe('DomainsCard', () => {
  it('shows each domain with its status, the TXT and CNAME records to set, and what the last check found missing', async () => {
    api([
      domain('learn.example.com', { problem: 'No CNAME record from learn.example.com to edge.platform.example yet.' }),
      domain('shop.example.com', { status: 'active', flaggedAt: '2026-11-25T09:00:00.000Z', flagReason: 'shop.example.com no longer points at edge.platform.example.' }),
    ]);
    open();
    const pending = await item('learn.example.com');
    expect(within(pending).getByText(m.status.pending_verification)).toBeInTheDocument();
    const records = within(pending).getByRole('table', { name: `${m.records.title} for learn.example.com` });
    expect(records).toHaveTextContent('TXT_courseplatform-challenge.learn.example.comtok-123');
    expect(records).toHaveTextContent('CNAMElearn.example.comedge.platform.example');
    expect(within(pending).getByText(/No CNAME record/)).toBeInTheDocument();
    const active = await item('shop.example.com');
    expect(within(active).getByText(m.status.active)).toBeInTheDocument();
    expect(within(active).getByText(m.flagged)).toBeInTheDocument();
    expect(within(active).queryByRole('table')).not.toBeInTheDocument();
    expect(within(active).queryByRole('button', { name: 'Verify shop.example.com' })).not.toBeInTheDocument();
  });

  it('adds a hostname, and shows the server’s reason under the field when it is refused', async () => {
    const added = domain('learn.example.com');
    let taken = true;
    const fetchMock = api([], 'pro', {
      'POST /api/domains': () => (taken ? errorResponse(409, 'CONFLICT', 'That hostname is already claimed by another account.') : jsonResponse(201, added)),
    });
    const { user } = open();
    await user.type(await screen.findByLabelText(new RegExp(m.add.label)), 'learn.example.com');
    await user.click(screen.getByRole('button', { name: m.add.action }));
    expect(await screen.findByText('That hostname is already claimed by another account.')).toBeInTheDocument();
    taken = false;
    await user.click(screen.getByRole('button', { name: m.add.action }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(m.add.done, { description: m.add.doneBody('learn.example.com') }));
    expect(callsTo(fetchMock, 'POST', '/api/domains').map((c) => c.body)).toEqual([{ hostname: 'learn.example.com' }, { hostname: 'learn.example.com' }]);
  });

  it('verifies a domain and shows where it now stands', async () => {
    api([domain('learn.example.com')], 'pro', { 'POST /api/domains/learn.example.com/verify': () => jsonResponse(200, domain('learn.example.com', { status: 'issuing_certificate' })) });
    const { user } = open();
    await user.click(within(await item('learn.example.com')).getByRole('button', { name: 'Verify learn.example.com' }));
    expect(await within(await item('learn.example.com')).findByText(m.status.issuing_certificate)).toBeInTheDocument();
  });

  it('removes a domain once confirmed', async () => {
    const fetchMock = api([domain('learn.example.com')], 'pro', { 'DELETE /api/domains/learn.example.com': () => new Response(null, { status: 204 }) });
    const { user } = open();
    await user.click(within(await item('learn.example.com')).getByRole('button', { name: 'Remove learn.example.com' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: m.remove.action }));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'learn.example.com' })).not.toBeInTheDocument());
    expect(callsTo(fetchMock, 'DELETE', '/api/domains/learn.example.com')).toHaveLength(1);
  });

  it('shows the plan card instead of the form on Starter, and keeps the list', async () => {
    api([domain('learn.example.com')], 'starter');
    open();
    expect(await screen.findByTestId('plan-required-card')).toHaveTextContent(m.card.plan);
    expect(screen.queryByRole('button', { name: m.add.action })).not.toBeInTheDocument();
    expect(within(await item('learn.example.com')).getByRole('button', { name: 'Remove learn.example.com' })).toBeInTheDocument();
  });
});
