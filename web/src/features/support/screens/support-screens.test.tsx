import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toast } from '@/components/ui/toaster.tsx';
import { paths } from '@/lib/paths.ts';
import { callsTo, errorResponse, fakeApi, jsonResponse, renderWithProviders } from '@/test/render.tsx';
import { spyOnToasts } from '@/test/toasts.ts';
import { supportMessages as m } from '../support-messages.ts';
import { inboxRequest, plan, request } from '../test/fixtures.ts';
import { AdminSupportScreen } from './admin-support-screen.tsx';
import { SupportScreen } from './support-screen.tsx';

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));
spyOnToasts();
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('SupportScreen (creator)', () => {
  const open = () => renderWithProviders(<SupportScreen />, { path: paths.creator.support });

  it('shows each request as a thread, newest first, with its status, our replies, and the Priority badge on a Pro request', async () => {
    fakeApi({
      'GET /api/support/requests': () =>
        jsonResponse(200, {
          nextCursor: null,
          items: [
            request('r2', { subject: 'Payout missing', priority: 'priority', status: 'closed', replies: [{ body: 'It left today.', at: '2026-11-20T12:00:00.000Z', from: 'support' }] }),
            request('r1', { subject: 'Coupons' }),
          ],
        }),
      'GET /api/me/subscription': () => jsonResponse(200, plan('pro')),
    });
    open();
    const list = await screen.findByRole('region', { name: m.creator.list.title });
    const articles = await within(list).findAllByRole('article');
    expect(articles.map((a) => within(a).getByRole('heading').textContent)).toEqual(['Payout missing', 'Coupons']);
    expect(within(articles[0]!).getByText(m.priority)).toBeInTheDocument();
    expect(within(articles[0]!).getByText('Closed')).toBeInTheDocument();
    const thread = within(articles[0]!).getByRole('list', { name: 'Conversation: Payout missing' });
    expect(within(thread).getAllByRole('listitem').map((li) => li.textContent)).toEqual([expect.stringContaining('Message r2'), expect.stringContaining('It left today.')]);
    expect(within(thread).getAllByRole('listitem')[1]).toHaveTextContent(m.creator.list.support);
    expect(within(articles[1]!).queryByText(m.priority)).not.toBeInTheDocument();
    expect(within(articles[1]!).getByText(m.creator.list.noReplies)).toBeInTheDocument();
    expect(await screen.findByText(m.creator.priorityNote)).toBeInTheDocument();
  });

  it('says what is wrong before sending anything, then sends a request with an Idempotency-Key and reloads the list', async () => {
    let listed = [] as ReturnType<typeof request>[];
    const api = fakeApi({
      'GET /api/support/requests': () => jsonResponse(200, { nextCursor: null, items: listed }),
      'GET /api/me/subscription': () => jsonResponse(200, plan('starter')),
      'POST /api/support/requests': () => {
        listed = [request('new', { subject: 'Video will not upload' })];
        return jsonResponse(201, { id: 'new', subject: 'Video will not upload', status: 'open', priority: 'standard', createdAt: '2026-11-21T10:00:00.000Z' });
      },
    });
    open();
    expect(await screen.findByRole('heading', { name: m.creator.list.empty.title })).toBeInTheDocument();
    expect(screen.queryByText(m.creator.priorityNote)).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: m.creator.form.submit }));
    expect(screen.getByText('Write a subject.')).toBeInTheDocument();
    expect(screen.getByText('Write a message.')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /Subject/ })).toHaveFocus();
    expect(callsTo(api, 'POST', '/api/support/requests')).toHaveLength(0);

    await userEvent.type(screen.getByRole('textbox', { name: /Subject/ }), 'Video will not upload');
    await userEvent.type(screen.getByRole('textbox', { name: /Message/ }), 'It stops at 50%.');
    await userEvent.click(screen.getByRole('button', { name: m.creator.form.submit }));
    await waitFor(() => expect(callsTo(api, 'POST', '/api/support/requests')).toHaveLength(1));
    const [sent] = callsTo(api, 'POST', '/api/support/requests');
    expect(sent!.body).toEqual({ subject: 'Video will not upload', body: 'It stops at 50%.' });
    expect(sent!.headers.get('Idempotency-Key')).toMatch(/.{8,}/);
    expect(await screen.findByRole('heading', { name: 'Video will not upload' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /Subject/ })).toHaveValue('');
    expect(toast.success).toHaveBeenCalledWith(m.creator.form.sent, { description: m.creator.form.sentDescription });
  });

  it("keeps the form and says why when the server refuses (the day's cap)", async () => {
    fakeApi({
      'GET /api/support/requests': () => jsonResponse(200, { nextCursor: null, items: [] }),
      'GET /api/me/subscription': () => jsonResponse(200, plan(null)),
      'POST /api/support/requests': () => errorResponse(429, 'RATE_LIMITED', 'You have opened 10 support requests today.'),
    });
    open();
    await userEvent.type(await screen.findByRole('textbox', { name: /Subject/ }), 'Again');
    await userEvent.type(screen.getByRole('textbox', { name: /Message/ }), 'More');
    await userEvent.click(screen.getByRole('button', { name: m.creator.form.submit }));
    expect(await screen.findByRole('alert')).toHaveTextContent('You have opened 10 support requests today.');
    expect(screen.getByRole('textbox', { name: /Subject/ })).toHaveValue('Again');
  });

  it('adds the creator\'s own message to an open request (not to a closed one), and shows it as theirs', async () => {
    let replies: { body: string; at: string; from: 'support' | 'you' }[] = [];
    const api = fakeApi({
      'GET /api/support/requests': () =>
        jsonResponse(200, { nextCursor: null, items: [request('r1', { subject: 'Upload fails', replies }), request('r0', { subject: 'Old one', status: 'closed' })] }),
      'GET /api/me/subscription': () => jsonResponse(200, plan('starter')),
      'POST /api/support/requests/r1/replies': () => {
        replies = [{ body: 'It is Firefox.', at: '2026-11-21T10:00:00.000Z', from: 'you' }];
        return jsonResponse(201, request('r1', { subject: 'Upload fails', replies }));
      },
    });
    open();
    const form = await screen.findByRole('form', { name: `${m.creator.followUp.label}: Upload fails` });
    expect(screen.queryByRole('form', { name: `${m.creator.followUp.label}: Old one` })).not.toBeInTheDocument();
    await userEvent.click(within(form).getByRole('button', { name: m.creator.followUp.submit }));
    expect(within(form).getByText('Write a message.')).toBeInTheDocument();
    expect(callsTo(api, 'POST', '/api/support/requests/r1/replies')).toHaveLength(0);
    await userEvent.type(within(form).getByRole('textbox', { name: m.creator.followUp.label }), 'It is Firefox.');
    await userEvent.click(within(form).getByRole('button', { name: m.creator.followUp.submit }));
    await waitFor(() => expect(callsTo(api, 'POST', '/api/support/requests/r1/replies')).toEqual([expect.objectContaining({ body: { body: 'It is Firefox.' } })]));
    const thread = await screen.findByRole('list', { name: 'Conversation: Upload fails' });
    await waitFor(() => expect(within(thread).getAllByRole('listitem')).toHaveLength(2));
    expect(within(thread).getAllByRole('listitem')[1]).toHaveTextContent(`${m.creator.list.you}`);
    expect(within(thread).getAllByRole('listitem')[1]).toHaveTextContent('It is Firefox.');
    expect(toast.success).toHaveBeenCalledWith(m.creator.followUp.added);
  });

  it('says when the requests could not be loaded, and loads them again on Try again', async () => {
    let fail = true;
    fakeApi({
      'GET /api/support/requests': () => (fail ? errorResponse(500, 'INTERNAL', 'boom') : jsonResponse(200, { nextCursor: null, items: [request('r1')] })),
      'GET /api/me/subscription': () => jsonResponse(200, plan('starter')),
    });
    open();
    expect(await screen.findByText(m.creator.list.loadFailed, {}, { timeout: 5000 })).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: m.retry }));
    expect(await screen.findByRole('heading', { name: 'Subject r1' })).toBeInTheDocument();
  });
});

describe('AdminSupportScreen (the inbox)', () => {
  const open = () => renderWithProviders(<AdminSupportScreen />, { path: paths.admin.support });

  it("lists open requests in the server's order with each one's priority and age, opens one and sends a reply", async () => {
    const api = fakeApi({
      'GET /api/admin/support?status=open': () =>
        jsonResponse(200, {
          nextCursor: null,
          items: [inboxRequest('pro1', { subject: 'Payout missing', priority: 'priority', createdAt: new Date(Date.now() - 3 * 3_600_000).toISOString() }), inboxRequest('st1', { subject: 'Coupons' })],
        }),
      'POST /api/admin/support/pro1/replies': () => jsonResponse(201, inboxRequest('pro1', { replies: [{ body: 'On its way.', at: '2026-11-21T10:00:00.000Z', from: 'support' }] })),
    });
    open();
    const list = await screen.findByRole('list', { name: 'Open requests' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows.map((row) => within(row).getByRole('heading').textContent)).toEqual(['Payout missing', 'Coupons']);
    expect(rows[0]).toHaveTextContent(m.priority);
    expect(rows[0]).toHaveTextContent('Waiting 3 h');
    expect(rows[0]).toHaveTextContent('pro1@example.com');
    expect(rows[1]).toHaveTextContent(m.standard);

    const opener = within(rows[0]!).getByRole('button', { name: `${m.admin.openRequest}: Payout missing` });
    expect(opener).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(opener);
    expect(opener).toHaveAttribute('aria-expanded', 'true');
    expect(within(rows[0]!).getByText('Message pro1')).toBeInTheDocument();

    await userEvent.click(within(rows[0]!).getByRole('button', { name: m.admin.send }));
    expect(within(rows[0]!).getByText('Write a reply.')).toBeInTheDocument();
    expect(callsTo(api, 'POST', '/api/admin/support/pro1/replies')).toHaveLength(0);

    await userEvent.type(within(rows[0]!).getByRole('textbox', { name: /Your reply/ }), 'On its way.');
    await userEvent.click(within(rows[0]!).getByRole('button', { name: m.admin.send }));
    await waitFor(() => expect(callsTo(api, 'POST', '/api/admin/support/pro1/replies')).toEqual([expect.objectContaining({ body: { body: 'On its way.' } })]));
    expect(callsTo(api, 'POST', '/api/admin/support/pro1/replies')[0]!.headers.get('Idempotency-Key')).toMatch(/.{8,}/);
    expect(toast.success).toHaveBeenCalledWith(m.admin.sent);
  });

  it('closes a request only after the confirmation, and shows the Closed tab', async () => {
    const api = fakeApi({
      'GET /api/admin/support?status=open': () => jsonResponse(200, { nextCursor: null, items: [inboxRequest('a', { subject: 'Done soon' })] }),
      'GET /api/admin/support?status=closed': () => jsonResponse(200, { nextCursor: null, items: [] }),
      'POST /api/admin/support/a/replies': () => jsonResponse(201, inboxRequest('a', { status: 'closed', closedAt: '2026-11-21T10:00:00.000Z' })),
    });
    open();
    await userEvent.click(await screen.findByRole('button', { name: `${m.admin.openRequest}: Done soon` }));
    await userEvent.type(screen.getByRole('textbox', { name: /Your reply/ }), 'Fixed.');
    await userEvent.click(screen.getByRole('button', { name: m.admin.sendAndClose }));
    const dialog = await screen.findByRole('alertdialog', { name: m.admin.confirmClose.title });
    expect(callsTo(api, 'POST', '/api/admin/support/a/replies')).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: m.admin.sendAndClose }));
    await waitFor(() => expect(callsTo(api, 'POST', '/api/admin/support/a/replies')).toEqual([expect.objectContaining({ body: { body: 'Fixed.', close: true } })]));
    expect(toast.success).toHaveBeenCalledWith(m.admin.sentAndClosed);

    await userEvent.click(screen.getByRole('tab', { name: m.admin.closed }));
    expect(await screen.findByRole('heading', { name: m.admin.empty.closed.title })).toBeInTheDocument();
  });

  it('says when there is nothing open', async () => {
    fakeApi({ 'GET /api/admin/support?status=open': () => jsonResponse(200, { nextCursor: null, items: [] }) });
    open();
    expect(await screen.findByRole('heading', { name: m.admin.empty.open.title })).toBeInTheDocument();
  });
});
