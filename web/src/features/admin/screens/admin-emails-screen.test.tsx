import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CampaignList } from '@contracts/campaigns.ts';
import { toast } from '@/components/ui/toaster.tsx';
import { callsTo, errorResponse, fakeApi, jsonResponse, renderWithProviders, statCard } from '@/test/render.tsx';
import { spyOnToasts } from '@/test/toasts.ts';
import { emailMessages as m } from '../admin-messages.ts';
import { CAMPAIGN_POLL_MS, campaignsQueryOptions } from '../api/campaigns-queries.ts';
import { campaignFixture, campaignsFixture, emailAutomationsFixture, emailTemplatesFixture, noCampaignsFixture } from '../test/fixtures.ts';
import { AdminEmailsScreen } from './admin-emails-screen.tsx';

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));

spyOnToasts();
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const reads = (overrides: Parameters<typeof fakeApi>[0] = {}) => ({
  'GET /api/admin/emails': () => jsonResponse(200, campaignsFixture),
  'GET /api/admin/email-templates': () => jsonResponse(200, emailTemplatesFixture),
  'GET /api/admin/email-automations': () => jsonResponse(200, emailAutomationsFixture),
  ...overrides,
});

const queued = () => jsonResponse(202, { campaignId: 'c9', recipientCount: 42 });

async function renderScreen(overrides: Parameters<typeof fakeApi>[0] = {}) {
  const api = fakeApi(reads(overrides));
  const rendered = renderWithProviders(<AdminEmailsScreen />);
  return { api, ...rendered };
}

describe('AdminEmailsScreen: figures and compose', () => {
  it('shows the real email totals in the summary cards, with no sample data', async () => {
    await renderScreen();
    await screen.findByRole('heading', { name: 'Campaigns' });
    expect(statCard('Campaigns')).toHaveTextContent('2');
    expect(statCard('Emails Sent')).toHaveTextContent('1,234');
    expect(statCard('Failed')).toHaveTextContent('5');
    expect(statCard('Unsubscribed')).toHaveTextContent('7');
    expect(statCard('Unsubscribed')).toHaveTextContent('2 suppressed after a bounce or complaint');
    expect(screen.queryByText('Sample data')).not.toBeInTheDocument();
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['Compose Email', 'Templates', 'Automations', 'Analytics']);
  });

  it('fills Subject and Content from the template chosen, and offers every recipient group', async () => {
    const { user } = await renderScreen();
    await screen.findByRole('heading', { name: 'Campaigns' });

    await user.click(screen.getByRole('combobox', { name: 'Recipients' }));
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual([
      'All users',
      'Creators',
      'Learners',
      'Group leaders',
      'Creators on trial',
      'Subscribed creators',
    ]);
    await user.click(screen.getByRole('option', { name: 'Creators' }));

    await user.click(screen.getByRole('combobox', { name: 'Template' }));
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Custom', 'Welcome Email', 'Monthly Newsletter', 'Course Announcement', 'Trial Ending']);
    await user.click(screen.getByRole('option', { name: 'Monthly Newsletter' }));

    expect(screen.getByLabelText(/^Subject/)).toHaveValue('This month on the platform');
    expect(screen.getByLabelText(/^Content/)).toHaveValue('Here is what is new.');
    expect(screen.getByRole('combobox', { name: 'Recipients' })).toHaveTextContent('Creators');
  });

  it("sends the campaign with an Idempotency-Key, toasts the spec's success and starts a fresh form", async () => {
    const { api, user } = await renderScreen({ 'POST /api/admin/emails': queued });
    await screen.findByRole('heading', { name: 'Campaigns' });

    await user.click(screen.getByRole('combobox', { name: 'Recipients' }));
    await user.click(screen.getByRole('option', { name: 'Creators on trial' }));
    await user.type(screen.getByLabelText(/^Subject/), 'Your trial ends soon');
    await user.type(screen.getByLabelText(/^Content/), 'Pick a plan to keep your courses online.');
    await user.click(screen.getByRole('button', { name: m.send }));

    await vi.waitFor(() => expect(toast.success).toHaveBeenCalledWith('Email sent successfully!', { description: 'Your email has been queued for delivery.' }));
    const [sent] = callsTo(api, 'POST', '/api/admin/emails');
    expect(sent?.body).toEqual({ recipient: 'trial', template: 'custom', subject: 'Your trial ends soon', content: 'Pick a plan to keep your courses online.' });
    expect(sent?.headers.get('Idempotency-Key')).toMatch(/^[\w.:-]{8,200}$/);

    expect(screen.getByRole('combobox', { name: 'Recipients' })).toHaveTextContent('All users');
    expect(screen.getByRole('combobox', { name: 'Template' })).toHaveTextContent('Custom');
    expect(screen.getByLabelText(/^Subject/)).toHaveValue('');
    expect(screen.getByLabelText(/^Content/)).toHaveValue('');
    expect(screen.getByText(m.queuedFor(42))).toBeInTheDocument();
    // The list is read again so the new campaign appears in Analytics.
    await vi.waitFor(() => expect(callsTo(api, 'GET', '/api/admin/emails').length).toBeGreaterThan(1));
  });

  it("says 'Sending...' while the campaign is being queued", async () => {
    const { user } = await renderScreen({ 'POST /api/admin/emails': () => new Promise<Response>(() => undefined) });
    await screen.findByRole('heading', { name: 'Campaigns' });
    await user.type(screen.getByLabelText(/^Subject/), 'Hello');
    await user.type(screen.getByLabelText(/^Content/), 'Hi all');
    await user.click(screen.getByRole('button', { name: m.send }));
    expect(await screen.findByRole('button', { name: m.sending })).toBeDisabled();
  });

  it("toasts 'Failed to send email' / 'Please try again later.' and keeps the draft; a retry of it carries the same key", async () => {
    const { api, user } = await renderScreen({ 'POST /api/admin/emails': () => errorResponse(500, 'INTERNAL', 'boom') });
    await screen.findByRole('heading', { name: 'Campaigns' });
    await user.type(screen.getByLabelText(/^Subject/), 'Hello');
    await user.type(screen.getByLabelText(/^Content/), 'Hi all');
    await user.click(screen.getByRole('button', { name: m.send }));

    await vi.waitFor(() => expect(toast.error).toHaveBeenCalledWith('Failed to send email', { description: 'Please try again later.' }));
    expect(screen.getByLabelText(/^Subject/)).toHaveValue('Hello');

    await user.click(screen.getByRole('button', { name: m.send }));
    await vi.waitFor(() => expect(callsTo(api, 'POST', '/api/admin/emails')).toHaveLength(2));
    const [first, second] = callsTo(api, 'POST', '/api/admin/emails');
    expect(second?.headers.get('Idempotency-Key')).toBe(first?.headers.get('Idempotency-Key'));

    await user.type(screen.getByLabelText(/^Subject/), ' again');
    await user.click(screen.getByRole('button', { name: m.send }));
    await vi.waitFor(() => expect(callsTo(api, 'POST', '/api/admin/emails')).toHaveLength(3));
    expect(callsTo(api, 'POST', '/api/admin/emails')[2]?.headers.get('Idempotency-Key')).not.toBe(first?.headers.get('Idempotency-Key'));
  });

  it("shows the server's field errors on the fields", async () => {
    const { user } = await renderScreen({
      'POST /api/admin/emails': () =>
        jsonResponse(400, { error: { code: 'VALIDATION_FAILED', message: 'Check the form.', details: [{ path: 'subject', code: 'too_big', message: 'Use at most 200 characters.' }] } }),
    });
    await screen.findByRole('heading', { name: 'Campaigns' });
    await user.type(screen.getByLabelText(/^Subject/), 'Hello');
    await user.type(screen.getByLabelText(/^Content/), 'Hi all');
    await user.click(screen.getByRole('button', { name: m.send }));

    expect(await screen.findByText('Use at most 200 characters.')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Subject/)).toHaveAttribute('aria-invalid', 'true');
  });

  it('names what is missing instead of sending an empty campaign', async () => {
    const { api, user } = await renderScreen();
    await screen.findByRole('heading', { name: 'Campaigns' });
    await user.click(screen.getByRole('button', { name: m.send }));
    expect(await screen.findByText('Enter a subject.')).toBeInTheDocument();
    expect(screen.getByText('Enter the content.')).toBeInTheDocument();
    expect(callsTo(api, 'POST', '/api/admin/emails')).toHaveLength(0);
  });
});

describe('AdminEmailsScreen: templates', () => {
  it('previews a template: its subject and its content as the email reads, links clickable', async () => {
    const { user } = await renderScreen();
    await user.click(await screen.findByRole('tab', { name: 'Templates' }));
    await user.click(await screen.findByRole('button', { name: 'Preview Welcome Email' }));

    const dialog = await screen.findByRole('dialog', { name: 'Welcome Email' });
    expect(dialog).toHaveTextContent('Subject: Welcome to the platform');
    expect(within(dialog).getByText('Hello and welcome!')).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: 'https://example.com/dashboard' })).toHaveAttribute('href', 'https://example.com/dashboard');
  });

  it('edits a template, saves it with PUT and says so', async () => {
    const saved = { ...emailTemplatesFixture.items[1]!, subject: 'News for November', updatedAt: '2026-11-23T10:00:00.000Z' };
    const { api, user } = await renderScreen({ 'PUT /api/admin/email-templates/newsletter': () => jsonResponse(200, saved) });
    await user.click(await screen.findByRole('tab', { name: 'Templates' }));
    await user.click(await screen.findByRole('button', { name: 'Edit Monthly Newsletter' }));

    const dialog = await screen.findByRole('dialog', { name: 'Edit Monthly Newsletter' });
    const subject = within(dialog).getByLabelText(/^Subject/);
    await user.clear(subject);
    await user.type(subject, 'News for November');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    await vi.waitFor(() => expect(toast.success).toHaveBeenCalledWith(m.templateSaved.title, { description: m.templateSaved.description('Monthly Newsletter') }));
    expect(callsTo(api, 'PUT', '/api/admin/email-templates/newsletter')[0]?.body).toEqual({ subject: 'News for November', content: 'Here is what is new.' });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Use Template Monthly Newsletter' }));
    expect(screen.getByLabelText(/^Subject/)).toHaveValue('News for November');
  });

  it("'Use Template' opens Compose with the template chosen and its subject and content filled in", async () => {
    const { user } = await renderScreen();
    await user.click(await screen.findByRole('tab', { name: 'Templates' }));
    await user.click(await screen.findByRole('button', { name: 'Use Template Course Announcement' }));

    expect(screen.getByRole('tab', { name: 'Compose Email' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('combobox', { name: 'Template' })).toHaveTextContent('Course Announcement');
    expect(screen.getByLabelText(/^Subject/)).toHaveValue('A new course is out');
    expect(screen.getByLabelText(/^Content/)).toHaveValue('Take a look.');
  });
});

describe('AdminEmailsScreen: automations', () => {
  it('lists the real automations with their trigger, template, sent count and state', async () => {
    const { user } = await renderScreen();
    await user.click(await screen.findByRole('tab', { name: 'Automations' }));
    const list = await screen.findByRole('list', { name: 'Automations' });
    const welcome = within(list).getByText('Welcome email').closest('li')!;
    expect(welcome).toHaveTextContent('When a creator signs up');
    expect(welcome).toHaveTextContent('Template: Welcome Email · 12 sent');
    expect(within(welcome).getByRole('switch')).toBeChecked();
    expect(within(list).getByRole('switch', { name: /Trial ending reminder/ })).not.toBeChecked();
  });

  it('switches an automation off at once and saves it', async () => {
    const off = { ...emailAutomationsFixture.items[0]!, enabled: false };
    const { api, user } = await renderScreen({ 'PUT /api/admin/email-automations/welcome': () => jsonResponse(200, off) });
    await user.click(await screen.findByRole('tab', { name: 'Automations' }));
    const toggle = await screen.findByRole('switch', { name: /Welcome email/ });
    await user.click(toggle);
    expect(toggle).not.toBeChecked();
    await vi.waitFor(() => expect(callsTo(api, 'PUT', '/api/admin/email-automations/welcome')[0]?.body).toEqual({ enabled: false }));
    expect(toggle).not.toBeChecked();
  });

  it('puts the switch back and toasts when saving fails', async () => {
    const { user } = await renderScreen({ 'PUT /api/admin/email-automations/welcome': () => errorResponse(500, 'INTERNAL', 'boom') });
    await user.click(await screen.findByRole('tab', { name: 'Automations' }));
    const toggle = await screen.findByRole('switch', { name: /Welcome email/ });
    await user.click(toggle);
    await vi.waitFor(() => expect(toast.error).toHaveBeenCalledWith('Error', { description: 'boom' }));
    await vi.waitFor(() => expect(toggle).toBeChecked());
  });
});

describe('AdminEmailsScreen: analytics', () => {
  const rows = () => within(screen.getByRole('region', { name: 'Campaigns' })).getAllByRole('row').slice(1);

  it('lists the campaigns newest first with their status and counts', async () => {
    const { user } = await renderScreen();
    await user.click(await screen.findByRole('tab', { name: 'Analytics' }));
    await vi.waitFor(() => expect(rows()).toHaveLength(2));
    const cells = (row: HTMLElement) => within(row).getAllByRole('cell').map((cell) => cell.textContent);
    expect(cells(rows()[0]!).slice(0, 7)).toEqual(['Trial tips', 'Creators on trial', 'Sending', '40', '20', '0', '0']);
    expect(cells(rows()[1]!).slice(0, 7)).toEqual(['November update', 'Creators', 'Sent', '120', '115', '1', '4']);
  });

  it("shows a campaign stopped at SES's daily quota as paused, saying it resumes by itself", async () => {
    const paused = { ...noCampaignsFixture, items: [campaignFixture({ id: 'c5', status: 'paused', recipientCount: 900, sent: 500, completedAt: null })] };
    const { user } = await renderScreen({ 'GET /api/admin/emails': () => jsonResponse(200, paused) });
    await user.click(await screen.findByRole('tab', { name: 'Analytics' }));
    await vi.waitFor(() => expect(rows()).toHaveLength(1));
    expect(within(rows()[0]!).getByText('Paused: daily quota')).toBeInTheDocument();
    expect(within(rows()[0]!).getByText(m.pausedForQuota)).toBeInTheDocument();
    // Hours away: the list is not read again every few seconds for it.
    const interval = campaignsQueryOptions().refetchInterval as (query: { state: { data: CampaignList | undefined } }) => number | false;
    expect(interval({ state: { data: paused } })).toBe(false);
  });

  it('asks again every few seconds while a campaign is queued or sending, and stops once all are done', () => {
    const interval = campaignsQueryOptions().refetchInterval as (query: { state: { data: CampaignList | undefined } }) => number | false;
    expect(interval({ state: { data: campaignsFixture } })).toBe(CAMPAIGN_POLL_MS);
    expect(interval({ state: { data: { ...noCampaignsFixture, items: [campaignFixture({ status: 'queued' })] } } })).toBe(CAMPAIGN_POLL_MS);
    expect(interval({ state: { data: { ...noCampaignsFixture, items: [campaignFixture({}), campaignFixture({ id: 'c3', status: 'failed' })] } } })).toBe(false);
    expect(interval({ state: { data: undefined } })).toBe(false);
  });

  it('says there are no campaigns yet when none was sent', async () => {
    const { user } = await renderScreen({ 'GET /api/admin/emails': () => jsonResponse(200, noCampaignsFixture) });
    await user.click(await screen.findByRole('tab', { name: 'Analytics' }));
    expect(await screen.findByText(m.noCampaigns.title)).toBeInTheDocument();
  });

  it('says so when the campaigns cannot be loaded, and loads them again on request', async () => {
    let fail = true;
    const { user } = await renderScreen({
      'GET /api/admin/emails': () => (fail ? errorResponse(500, 'INTERNAL', 'boom') : jsonResponse(200, campaignsFixture)),
    });
    await user.click(await screen.findByRole('tab', { name: 'Analytics' }));
    const alerts = await screen.findAllByRole('alert');
    expect(alerts.map((a) => a.textContent)).toEqual([expect.stringContaining(m.figuresFailed), expect.stringContaining(m.campaignsFailed)]);
    fail = false;
    await user.click(within(alerts[1]!).getByRole('button', { name: m.retry }));
    await vi.waitFor(() => expect(rows()).toHaveLength(2));
    expect(statCard('Emails Sent')).toHaveTextContent('1,234');
  });

  it('can be reached with the keyboard alone: arrow keys move between the tabs', async () => {
    const { user } = await renderScreen();
    const compose = await screen.findByRole('tab', { name: 'Compose Email' });
    compose.focus();
    await user.keyboard('{ArrowRight}{ArrowRight}{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Analytics' })).toHaveFocus();
    expect(screen.getByRole('tab', { name: 'Analytics' })).toHaveAttribute('aria-selected', 'true');
    await vi.waitFor(() => expect(rows()).toHaveLength(2));
  });
});
