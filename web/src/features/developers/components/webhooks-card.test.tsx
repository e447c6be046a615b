import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { toast } from '@/components/ui/toaster.tsx';
import { paths } from '@/lib/paths.ts';
import { callsTo, errorResponse, jsonResponse, renderWithProviders } from '@/test/render.tsx';
import { subscription } from '@/test/fixtures.ts';
import { developersMessages } from '../developers-messages.ts';
import { delivery, endpoint } from '../test/fixtures.ts';
import { proCreatorApi, useCardTestSetup } from '../test/setup.ts';
import { verifySnippet } from './verify-signatures.tsx';
import { WebhooksCard } from './webhooks-card.tsx';

const m = developersMessages.webhooks;
const d = m.deliveries;

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));
useCardTestSetup();

const open = () => renderWithProviders(<WebhooksCard />, { path: paths.creator.developers });
const findEndpoints = async () => within(await screen.findByRole('list', { name: 'Webhook endpoints' })).getAllByRole('listitem', { name: /^https:/ });

/** The API of a Pro creator with these endpoints; `more` adds or overrides routes. */
const api = proCreatorApi<ReturnType<typeof endpoint>>('GET /api/webhook-endpoints');

describe('WebhooksCard: the list', () => {
  it('lists each endpoint with its URL and events, and a Disabled badge with its day', async () => {
    api([
      endpoint('e1', { url: 'https://crm.example.com/hooks', events: ['enrollment.created', 'order.paid'] }),
      endpoint('e2', { url: 'https://old.example.com/in', disabledAt: '2026-11-25T09:00:00.000Z' }),
    ]);
    open();
    expect(await screen.findByRole('status')).toHaveTextContent(m.loading);
    const [first, second] = await findEndpoints();
    expect(within(first!).getByRole('list', { name: 'Events of https://crm.example.com/hooks' })).toHaveTextContent('enrollment.createdorder.paid');
    expect(within(first!).queryByText(/Disabled/)).not.toBeInTheDocument();
    expect(within(second!).getByText('Disabled 25 Nov 2026')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Deliveries to https://crm.example.com/hooks' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete https://old.example.com/in' })).toBeInTheDocument();
  });

  it('says there are no endpoints yet, with Add endpoint at hand, and still shows how to verify signatures', async () => {
    api([]);
    const { user } = open();
    expect(await screen.findByRole('heading', { name: m.emptyTitle })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: m.add })).toBeEnabled();
    const verify = screen.getByRole('region', { name: m.verify.title });
    expect(within(verify).getByLabelText('Verification snippet (Node.js)')).toHaveTextContent("import { Webhook } from 'standardwebhooks';");
    expect(verifySnippet).toContain('const wh = new Webhook(secret);');
    expect(verifySnippet).toContain('wh.verify(rawBody, headers)');
    await user.click(within(verify).getByRole('button', { name: m.verify.copyLabel }));
    expect(await navigator.clipboard.readText()).toBe(verifySnippet);
    expect(within(verify).getByRole('button', { name: 'Copied' })).toBeInTheDocument();
  });

  it("offers 'Try again' when the endpoints cannot be loaded", async () => {
    let fail = true;
    api([], { 'GET /api/webhook-endpoints': () => (fail ? errorResponse(500, 'INTERNAL', 'boom') : jsonResponse(200, { items: [endpoint('e1')] })) });
    const { user } = open();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(m.loadFailed);
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await findEndpoints()).toHaveLength(1);
  });
});

describe('WebhooksCard: adding an endpoint', () => {
  it('adds an endpoint with its events, shows the secret once with Copy, then toasts and lists it', async () => {
    let items = [endpoint('e1')];
    const fetchMock = api([], {
      'GET /api/webhook-endpoints': () => jsonResponse(200, { items }),
      'POST /api/webhook-endpoints': () => {
        items = [endpoint('e2', { url: 'https://crm.example.com/hooks', events: ['order.paid'] }), ...items];
        return jsonResponse(201, { id: 'e2', url: 'https://crm.example.com/hooks', events: ['order.paid', 'order.refunded'], secret: 'whsec_c2VjcmV0LXNlY3JldA==' });
      },
    });
    const { user } = open();
    await findEndpoints();
    await user.click(screen.getByRole('button', { name: m.add }));
    const dialog = await screen.findByRole('dialog', { name: m.form.title });
    const url = within(dialog).getByRole('textbox', { name: /Endpoint URL/ });
    expect(url).toHaveFocus();
    await user.type(url, 'https://crm.example.com/hooks');
    expect(within(dialog).getAllByRole('checkbox')).toHaveLength(7);
    await user.click(within(dialog).getByRole('checkbox', { name: /An order is refunded or disputed/ }));
    await user.click(within(dialog).getByRole('checkbox', { name: /An order is paid/ }));
    await user.click(within(dialog).getByRole('button', { name: m.form.submit }));

    const shown = await screen.findByRole('dialog', { name: m.created.title });
    expect(callsTo(fetchMock, 'POST', '/api/webhook-endpoints').map((call) => call.body)).toEqual([
      { url: 'https://crm.example.com/hooks', events: ['order.paid', 'order.refunded'] },
    ]);
    const secret = within(shown).getByRole('textbox', { name: m.created.field });
    expect(secret).toHaveValue('whsec_c2VjcmV0LXNlY3JldA==');
    expect(secret).toHaveAccessibleDescription(developersMessages.shownOnce);
    await user.click(within(shown).getByRole('button', { name: m.created.copy }));
    expect(await navigator.clipboard.readText()).toBe('whsec_c2VjcmV0LXNlY3JldA==');
    // No toast over the secret's dialog (on a phone it would cover its title): it comes once the dialog is closed.
    expect(toast.success).not.toHaveBeenCalled();
    await user.click(within(shown).getByRole('button', { name: m.created.done }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(toast.success).toHaveBeenCalledExactlyOnceWith('Endpoint added', { description: 'https://crm.example.com/hooks will be told of 2 events.' });
    await waitFor(async () => expect((await findEndpoints()).map((item) => item.getAttribute('aria-label'))).toEqual(['https://crm.example.com/hooks', 'https://hooks.example.com/e1']));
    expect(screen.queryByDisplayValue('whsec_c2VjcmV0LXNlY3JldA==')).not.toBeInTheDocument();
  });

  it("checks the form with the contract's messages, and shows the server's refusal (a private address) in the dialog", async () => {
    const fetchMock = api([], { 'POST /api/webhook-endpoints': () => errorResponse(400, 'VALIDATION_FAILED', 'The address must be https and public.') });
    const { user } = open();
    await screen.findByRole('heading', { name: m.emptyTitle });
    await user.click(screen.getByRole('button', { name: m.add }));
    const dialog = await screen.findByRole('dialog', { name: m.form.title });
    await user.type(within(dialog).getByRole('textbox', { name: /Endpoint URL/ }), 'crm.example.com');
    await user.click(within(dialog).getByRole('button', { name: m.form.submit }));
    expect(await within(dialog).findByText('Enter the full address, starting with https://.')).toBeInTheDocument();
    expect(within(dialog).getByText('Choose at least one event.')).toBeInTheDocument();
    expect(within(dialog).getByRole('textbox', { name: /Endpoint URL/ })).toHaveFocus();
    expect(callsTo(fetchMock, 'POST', '/api/webhook-endpoints')).toHaveLength(0);

    await user.clear(within(dialog).getByRole('textbox', { name: /Endpoint URL/ }));
    await user.type(within(dialog).getByRole('textbox', { name: /Endpoint URL/ }), 'https://10.0.0.1/hook');
    await user.click(within(dialog).getByRole('checkbox', { name: /A certificate is issued/ }));
    await user.click(within(dialog).getByRole('button', { name: m.form.submit }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The address must be https and public.');
    expect(screen.getByRole('dialog', { name: m.form.title })).toBeInTheDocument();
  });

  it('shows the plan card when the server answers PLAN_REQUIRED', async () => {
    api([], { 'POST /api/webhook-endpoints': () => errorResponse(403, 'PLAN_REQUIRED', 'Webhooks are part of the Pro plan.', { requiredPlan: 'pro' }) });
    const { user } = open();
    await screen.findByRole('heading', { name: m.emptyTitle });
    await user.click(screen.getByRole('button', { name: m.add }));
    const dialog = await screen.findByRole('dialog', { name: m.form.title });
    await user.type(within(dialog).getByRole('textbox', { name: /Endpoint URL/ }), 'https://crm.example.com/hooks');
    await user.click(within(dialog).getByRole('checkbox', { name: /An order is paid/ }));
    await user.click(within(dialog).getByRole('button', { name: m.form.submit }));
    const card = await screen.findByTestId('plan-required-card');
    expect(card).toHaveTextContent('Webhooks are part of the Pro plan.');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: m.add })).not.toBeInTheDocument();
  });

  it('shows the plan card instead of Add endpoint for a plan without webhooks', async () => {
    api([], { 'GET /api/me/subscription': () => jsonResponse(200, subscription('starter')) });
    open();
    expect(await screen.findByTestId('plan-required-card')).toHaveTextContent(m.planReason);
    expect(screen.queryByRole('button', { name: m.add })).not.toBeInTheDocument();
  });
});

describe('WebhooksCard: a disabled endpoint', () => {
  it('says why it was disabled and enables it again: the badge and the hint go, a toast says so', async () => {
    const disabled = endpoint('e2', { url: 'https://old.example.com/in', disabledAt: '2026-11-25T09:00:00.000Z' });
    const fetchMock = api([endpoint('e1'), disabled], { 'POST /api/webhook-endpoints/e2/enable': () => jsonResponse(200, { ...disabled, disabledAt: null }) });
    const { user } = open();
    const [first, second] = await findEndpoints();
    expect(within(first!).queryByRole('button', { name: /^Enable/ })).not.toBeInTheDocument();
    expect(within(second!).getByText(m.disabledHint)).toBeInTheDocument();
    await user.click(within(second!).getByRole('button', { name: 'Enable https://old.example.com/in' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(m.enable.done, { description: m.enable.doneBody }));
    expect(callsTo(fetchMock, 'POST', '/api/webhook-endpoints/e2/enable')).toHaveLength(1);
    const [, again] = await findEndpoints();
    expect(within(again!).queryByText(/Disabled/)).not.toBeInTheDocument();
    expect(within(again!).queryByText(m.disabledHint)).not.toBeInTheDocument();
    expect(within(again!).queryByRole('button', { name: /^Enable/ })).not.toBeInTheDocument();
  });
});

describe('WebhooksCard: deleting an endpoint', () => {
  it('deletes an endpoint only after a confirmation naming it', async () => {
    const fetchMock = api([endpoint('e1'), endpoint('e2')], { 'DELETE /api/webhook-endpoints/e1': () => new Response(null, { status: 204 }) });
    const { user } = open();
    await findEndpoints();
    await user.click(screen.getByRole('button', { name: 'Delete https://hooks.example.com/e1' }));
    const question = screen.getByRole('alertdialog', { name: 'Delete https://hooks.example.com/e1?' });
    await user.click(within(question).getByRole('button', { name: 'Cancel' }));
    expect(callsTo(fetchMock, 'DELETE', '/api/webhook-endpoints/e1')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Delete https://hooks.example.com/e1' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: m.remove.action }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(m.remove.done, { description: 'https://hooks.example.com/e1 is told of nothing more.' }));
    await waitFor(async () => expect(await findEndpoints()).toHaveLength(1));
    expect(callsTo(fetchMock, 'DELETE', '/api/webhook-endpoints/e1')).toHaveLength(1);
  });
});

describe('WebhooksCard: deliveries', () => {
  const rowsOf = (table: HTMLElement) => within(table).getAllByRole('row').slice(1);
  const cellsOf = (row: HTMLElement) => within(row).getAllByRole('cell').map((cell) => cell.textContent);

  it("shows an endpoint's deliveries, loads more by cursor, and retries a failed one: a toast, then the log again", async () => {
    let retried = false;
    const fetchMock = api([endpoint('e1')], {
      'GET /api/webhook-endpoints/e1/deliveries': () =>
        jsonResponse(200, {
          nextCursor: 'c2',
          items: [
            delivery('d1', { status: retried ? 'delivered' : 'failed', attempts: retried ? 9 : 8, lastStatusCode: retried ? 200 : 500 }),
            delivery('d2', { event: 'order.paid', status: 'pending', attempts: 2, lastStatusCode: null, nextAttemptAt: '2026-11-25T10:30:00.000Z' }),
          ],
        }),
      'GET /api/webhook-endpoints/e1/deliveries?cursor=c2': () => jsonResponse(200, { nextCursor: null, items: [delivery('d3', { event: 'course.completed' })] }),
      'POST /api/webhook-endpoints/e1/deliveries/d1/retry': () => {
        retried = true;
        return new Response(null, { status: 202 });
      },
    });
    const { user } = open();
    await findEndpoints();
    await user.click(screen.getByRole('button', { name: 'Deliveries to https://hooks.example.com/e1' }));
    const dialog = await screen.findByRole('dialog', { name: d.title });
    const table = await within(dialog).findByRole('table');
    expect(within(table).getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Status', 'Event', 'Attempts', 'Last status', 'Next attempt', 'Created', 'Actions']);
    const first = cellsOf(rowsOf(table)[0]!);
    expect(first.slice(0, 5)).toEqual(['Failed', 'enrollment.created', '8', '500', 'None']);
    expect(first[6]).toBe('Retry now');
    expect(cellsOf(rowsOf(table)[1]!).slice(0, 4)).toEqual(['Pending', 'order.paid', '2', 'None']);
    expect(within(table).getByRole('button', { name: 'Retry order.paid now' })).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: d.loadMore }));
    await waitFor(() => expect(rowsOf(table)).toHaveLength(3));
    expect(cellsOf(rowsOf(table)[2]!).slice(0, 2)).toEqual(['Delivered', 'course.completed']);
    expect(cellsOf(rowsOf(table)[2]!)[6]).toBe('');
    expect(within(dialog).queryByRole('button', { name: d.loadMore })).not.toBeInTheDocument();

    await user.click(within(table).getByRole('button', { name: 'Retry enrollment.created now' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(d.retried, { description: `enrollment.created: ${d.retriedBody}` }));
    expect(callsTo(fetchMock, 'POST', '/api/webhook-endpoints/e1/deliveries/d1/retry')).toHaveLength(1);
    await waitFor(() => expect(cellsOf(rowsOf(table)[0]!).slice(0, 4)).toEqual(['Delivered', 'enrollment.created', '9', '200']));
  });

  it('says when nothing was delivered yet, and when the log cannot be loaded', async () => {
    let fail = true;
    api([endpoint('e1')], {
      'GET /api/webhook-endpoints/e1/deliveries': () => (fail ? errorResponse(500, 'INTERNAL', 'boom') : jsonResponse(200, { nextCursor: null, items: [] })),
    });
    const { user } = open();
    await findEndpoints();
    await user.click(screen.getByRole('button', { name: 'Deliveries to https://hooks.example.com/e1' }));
    const dialog = await screen.findByRole('dialog', { name: d.title });
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent(d.loadFailed);
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await within(dialog).findByText(d.empty)).toBeInTheDocument();
  });

  it('toasts the reason when a retry is refused', async () => {
    api([endpoint('e1')], {
      'GET /api/webhook-endpoints/e1/deliveries': () => jsonResponse(200, { nextCursor: null, items: [delivery('d1', { status: 'failed' })] }),
      'POST /api/webhook-endpoints/e1/deliveries/d1/retry': () => errorResponse(409, 'CONFLICT', 'This endpoint is disabled.'),
    });
    const { user } = open();
    await findEndpoints();
    await user.click(screen.getByRole('button', { name: 'Deliveries to https://hooks.example.com/e1' }));
    const dialog = await screen.findByRole('dialog', { name: d.title });
    await user.click(await within(dialog).findByRole('button', { name: 'Retry enrollment.created now' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Error', { description: 'This endpoint is disabled.' }));
  });
});
