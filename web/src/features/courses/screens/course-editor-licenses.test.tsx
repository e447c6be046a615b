import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { License } from '@contracts/licenses.ts';
import { toast } from '@/components/ui/toaster.tsx';
import type { fakeApi} from '@/test/render.tsx';
import { callsTo, errorResponse, jsonResponse } from '@/test/render.tsx';
import { subscription } from '@/test/fixtures.ts';
import { spyOnToasts } from '@/test/toasts.ts';
import { paintingCourse } from '../test/fixtures.ts';
import { COURSE, renderCourseEditor } from '../test/render-editor.tsx';

// The course editor's team licences (issue 14): the creator grants a licence sold outside the platform, sees the
// licences granted or bought with their seats in use, adds seats and ends one.

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));
spyOnToasts();
afterEach(() => vi.unstubAllGlobals());

const LICENSES = `${COURSE}/licenses`;

const granted: License = {
  id: 'lic-1',
  courseId: 'course-1',
  courseTitle: 'Watercolour for Beginners',
  leaderEmail: 'lead@example.com',
  seatsTotal: 10,
  seatsUsed: 3,
  // Midday: the same calendar day in every time zone the tests may run in.
  expiresAt: '2030-12-31T12:00:00.000Z',
  status: 'active',
  source: 'granted',
  createdAt: '2026-11-22T10:00:00.000Z',
};
const bought: License = { ...granted, id: 'lic_order-1', leaderEmail: 'buyer@example.com', seatsTotal: 5, seatsUsed: 5, expiresAt: null, source: 'purchased', createdAt: '2026-11-21T10:00:00.000Z' };
const ended: License = { ...granted, id: 'lic-0', leaderEmail: 'old@example.com', seatsTotal: 4, seatsUsed: 2, expiresAt: null, status: 'ended', createdAt: '2026-11-20T10:00:00.000Z' };

/** The editor of course-1 against a fake server holding the licences in `state`; the writes come in `extra`. */
function renderEditor(state: { licenses: License[] }, extra: Parameters<typeof fakeApi>[0] = {}) {
  return renderCourseEditor(() => paintingCourse, { [`GET ${LICENSES}`]: () => jsonResponse(200, { nextCursor: null, items: state.licenses }), ...extra });
}

const panel = async () => within(await screen.findByRole('region', { name: 'Team licences' }));
const rows = () => screen.getAllByTestId('license-row');
const rowOf = (email: string) => rows().find((row) => row.textContent?.includes(email))!;

describe('CourseEditorScreen: team licences', () => {
  it('lists the licences with their seats in use, end date and Bought / Ended badges; an ended one has no actions', async () => {
    renderEditor({ licenses: [granted, bought, ended] });
    const licenses = await panel();

    // The licence list is the third query to answer; give a busy machine time.
    await licenses.findByRole('list', { name: 'Licences' }, { timeout: 5000 });
    expect(rows().map((row) => row.querySelector('.font-medium')?.textContent)).toEqual(['lead@example.com', 'buyer@example.com', 'old@example.com']);

    const first = within(rowOf('lead@example.com'));
    expect(first.getByText('3 of 10 seats used')).toBeInTheDocument();
    expect(first.getByText('Ends 31 Dec 2030')).toBeInTheDocument();
    expect(first.getByRole('progressbar', { name: "lead@example.com's licence: 3 of 10 seats used" })).toHaveAttribute('aria-valuenow', '30');
    expect(first.queryByText('Bought')).not.toBeInTheDocument();
    expect(first.queryByText('Ended')).not.toBeInTheDocument();
    expect(first.getByRole('button', { name: "Add seats to lead@example.com's licence" })).toBeInTheDocument();
    expect(first.getByRole('button', { name: "End lead@example.com's licence" })).toBeInTheDocument();

    const second = within(rowOf('buyer@example.com'));
    expect(second.getByText('5 of 5 seats used')).toBeInTheDocument();
    expect(second.getByText('No end date')).toBeInTheDocument();
    expect(second.getByText('Bought')).toBeInTheDocument();

    const third = within(rowOf('old@example.com'));
    expect(third.getByText('2 of 4 seats used')).toBeInTheDocument();
    expect(third.getByText('Ended')).toBeInTheDocument();
    expect(third.queryByText('No end date')).not.toBeInTheDocument();
    expect(third.queryByRole('button')).not.toBeInTheDocument();
  });

  it('grants a licence with a last day: the body is the contract’s, the licence tops the list and a toast says so', async () => {
    const state = { licenses: [granted] };
    const created: License = { ...granted, id: 'lic-2', leaderEmail: 'new@example.com', seatsTotal: 12, seatsUsed: 0, expiresAt: '2030-06-30T12:00:00.000Z', createdAt: '2026-11-25T10:00:00.000Z' };
    const { user, fetchMock } = renderEditor(state, {
      [`POST ${LICENSES}`]: () => {
        state.licenses = [created, ...state.licenses];
        return jsonResponse(201, created);
      },
    });
    const licenses = await panel();
    await licenses.findByRole('list', { name: 'Licences' }, { timeout: 5000 });

    await user.click(licenses.getByRole('button', { name: 'Grant a licence' }));
    const dialog = screen.getByRole('dialog', { name: 'Grant a licence' });
    await user.type(within(dialog).getByRole('textbox', { name: /Leader email/ }), 'New@Example.com');
    await user.type(within(dialog).getByRole('spinbutton', { name: /Seats/ }), '12');
    fireEvent.change(within(dialog).getByLabelText('Last day'), { target: { value: '2030-06-30' } });
    await user.click(within(dialog).getByRole('button', { name: 'Grant licence' }));

    await vi.waitFor(() => expect(screen.queryByRole('dialog', { name: 'Grant a licence' })).not.toBeInTheDocument());
    expect(callsTo(fetchMock, 'POST', LICENSES)[0]?.body).toEqual({
      leaderEmail: 'new@example.com',
      seats: 12,
      expiresAt: new Date(2030, 5, 30, 23, 59, 59, 999).toISOString(),
    });
    expect(rows()[0]).toHaveTextContent('new@example.com');
    expect(rows()[0]).toHaveTextContent('0 of 12 seats used');
    expect(rows()).toHaveLength(2);
    expect(toast.success).toHaveBeenCalledWith('Licence granted', expect.objectContaining({ description: expect.stringContaining('new@example.com') as unknown }));
  });

  it('checks the grant with the contract before sending anything', async () => {
    const { user, fetchMock } = renderEditor({ licenses: [] });
    const licenses = await panel();
    await licenses.findByText('No team licences yet.', undefined, { timeout: 5000 });

    await user.click(licenses.getByRole('button', { name: 'Grant a licence' }));
    const dialog = screen.getByRole('dialog', { name: 'Grant a licence' });
    await user.type(within(dialog).getByRole('textbox', { name: /Leader email/ }), 'not-an-email');
    await user.type(within(dialog).getByRole('spinbutton', { name: /Seats/ }), '20000');
    fireEvent.change(within(dialog).getByLabelText('Last day'), { target: { value: '2020-01-01' } });
    await user.click(within(dialog).getByRole('button', { name: 'Grant licence' }));

    expect(await within(dialog).findByRole('textbox', { name: /Leader email/ })).toHaveAccessibleDescription(/Enter the group leader’s email address/);
    expect(within(dialog).getByRole('spinbutton', { name: /Seats/ })).toHaveAccessibleDescription(/A whole number of seats from 1 to 10,000/);
    expect(within(dialog).getByLabelText('Last day')).toHaveAccessibleDescription(/Pick today or a later day/);
    expect(callsTo(fetchMock, 'POST', LICENSES)).toEqual([]);
  });

  it('shows a 409 (an email of another role) on the email field and keeps the dialog open', async () => {
    const message = 'That email belongs to an account that cannot lead a team. Use another email.';
    const { user } = renderEditor({ licenses: [] }, { [`POST ${LICENSES}`]: () => errorResponse(409, 'CONFLICT', message) });
    const licenses = await panel();
    await licenses.findByText('No team licences yet.', undefined, { timeout: 5000 });

    await user.click(licenses.getByRole('button', { name: 'Grant a licence' }));
    const dialog = screen.getByRole('dialog', { name: 'Grant a licence' });
    await user.type(within(dialog).getByRole('textbox', { name: /Leader email/ }), 'learner@example.com');
    await user.type(within(dialog).getByRole('spinbutton', { name: /Seats/ }), '5');
    await user.click(within(dialog).getByRole('button', { name: 'Grant licence' }));

    const email = within(dialog).getByRole('textbox', { name: /Leader email/ });
    await vi.waitFor(() => expect(email).toHaveAccessibleDescription(expect.stringContaining(message)));
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('dialog', { name: 'Grant a licence' })).toBeInTheDocument();
    expect(toast.success).not.toHaveBeenCalled();
    expect(licenses.getByText('No team licences yet.')).toBeInTheDocument();
  });

  it('shows the verification panel in the dialog when the server needs a verified email first (403 EMAIL_NOT_VERIFIED)', async () => {
    const message = 'Verify your email address first: the platform sends invitations and messages on your behalf only once your own address is verified.';
    const { user } = renderEditor({ licenses: [] }, { [`POST ${LICENSES}`]: () => errorResponse(403, 'EMAIL_NOT_VERIFIED', message) });
    const licenses = await panel();
    await licenses.findByText('No team licences yet.', undefined, { timeout: 5000 });

    await user.click(licenses.getByRole('button', { name: 'Grant a licence' }));
    const dialog = screen.getByRole('dialog', { name: 'Grant a licence' });
    await user.type(within(dialog).getByRole('textbox', { name: /Leader email/ }), 'lead@example.com');
    await user.type(within(dialog).getByRole('spinbutton', { name: /Seats/ }), '5');
    await user.click(within(dialog).getByRole('button', { name: 'Grant licence' }));

    const verify = await within(dialog).findByRole('region', { name: 'Verify your email' });
    expect(verify).toHaveTextContent(`${message} Then press Grant licence again.`);
    expect(within(verify).getByRole('button', { name: 'Send verification code' })).toBeInTheDocument();
    expect(toast.success).not.toHaveBeenCalled();
    expect(toast.error).not.toHaveBeenCalled();
  });

  it('adds seats: the total starts at the current one, may not go below the seats in use, and is PATCHed', async () => {
    const state = { licenses: [granted] };
    const { user, fetchMock } = renderEditor(state, {
      [`PATCH ${LICENSES}/lic-1`]: (init) => {
        const body = JSON.parse(String(init?.body)) as { seatsTotal: number };
        state.licenses = [{ ...granted, seatsTotal: body.seatsTotal }];
        return jsonResponse(200, state.licenses[0]);
      },
    });
    const licenses = await panel();

    await user.click(await licenses.findByRole('button', { name: "Add seats to lead@example.com's licence" }, { timeout: 5000 }));
    const dialog = screen.getByRole('dialog', { name: 'Add seats' });
    const total = within(dialog).getByRole('spinbutton', { name: /Seats in total/ });
    expect(total).toHaveValue(10);
    await user.clear(total);
    await user.type(total, '2');
    await user.click(within(dialog).getByRole('button', { name: 'Save seats' }));
    expect(total).toHaveAccessibleDescription(/A whole number from 3 \(the seats in use\) to 10,000/);
    expect(callsTo(fetchMock, 'PATCH', `${LICENSES}/lic-1`)).toEqual([]);

    await user.clear(total);
    await user.type(total, '25');
    await user.click(within(dialog).getByRole('button', { name: 'Save seats' }));

    await vi.waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add seats' })).not.toBeInTheDocument());
    expect(callsTo(fetchMock, 'PATCH', `${LICENSES}/lic-1`)[0]?.body).toEqual({ seatsTotal: 25 });
    expect(within(rowOf('lead@example.com')).getByText('3 of 25 seats used')).toBeInTheDocument();
    expect(toast.success).toHaveBeenCalledWith('Seats updated', expect.anything());
  });

  it("shows the server's 409 on the seats in the dialog", async () => {
    const message = 'More seats are in use than 4: free some first.';
    const { user } = renderEditor({ licenses: [granted] }, { [`PATCH ${LICENSES}/lic-1`]: () => errorResponse(409, 'CONFLICT', message) });
    const licenses = await panel();

    await user.click(await licenses.findByRole('button', { name: "Add seats to lead@example.com's licence" }, { timeout: 5000 }));
    const dialog = screen.getByRole('dialog', { name: 'Add seats' });
    const total = within(dialog).getByRole('spinbutton', { name: /Seats in total/ });
    await user.clear(total);
    await user.type(total, '4');
    await user.click(within(dialog).getByRole('button', { name: 'Save seats' }));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent(message);
    expect(screen.getByRole('dialog', { name: 'Add seats' })).toBeInTheDocument();
    expect(toast.success).not.toHaveBeenCalled();
  });

  it('ends a licence only after the confirmation, which says its members lose access', async () => {
    const state = { licenses: [granted] };
    const { user, fetchMock } = renderEditor(state, {
      [`PATCH ${LICENSES}/lic-1`]: () => {
        state.licenses = [{ ...granted, status: 'ended' }];
        return jsonResponse(200, state.licenses[0]);
      },
    });
    const licenses = await panel();

    await user.click(await licenses.findByRole('button', { name: "End lead@example.com's licence" }, { timeout: 5000 }));
    const dialog = screen.getByRole('alertdialog', { name: 'End this licence?' });
    expect(dialog).toHaveTextContent("lead@example.com's team: its 3 members lose access to “Watercolour for Beginners” now. They keep their progress.");
    expect(callsTo(fetchMock, 'PATCH', `${LICENSES}/lic-1`)).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'End licence' }));

    await vi.waitFor(() => expect(within(rowOf('lead@example.com')).getByText('Ended')).toBeInTheDocument());
    expect(callsTo(fetchMock, 'PATCH', `${LICENSES}/lic-1`)[0]?.body).toEqual({ status: 'ended' });
    expect(within(rowOf('lead@example.com')).queryByRole('button')).not.toBeInTheDocument();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(toast.success).toHaveBeenCalledWith('Licence ended', expect.anything());
  });

  it('says when there is no licence yet', async () => {
    renderEditor({ licenses: [] });
    const licenses = await panel();
    expect(await licenses.findByText('No team licences yet.', undefined, { timeout: 5000 })).toBeInTheDocument();
    expect(licenses.getByRole('button', { name: 'Grant a licence' })).toBeInTheDocument();
  });

  it('says when the licences could not be loaded, and loads them again on Try again', async () => {
    let fail = true;
    const { user } = renderEditor({ licenses: [] }, { [`GET ${LICENSES}`]: () => (fail ? errorResponse(500, 'INTERNAL', 'boom') : jsonResponse(200, { nextCursor: null, items: [bought] })) });
    const licenses = await panel();

    const alert = await licenses.findByRole('alert', undefined, { timeout: 5000 });
    expect(alert).toHaveTextContent('The licences could not be loaded.');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await licenses.findByText('buyer@example.com')).toBeInTheDocument();
    expect(licenses.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('CourseEditorScreen: team licences and the plan (issue 29)', () => {
  const onPlan = (tier: 'starter' | null) => ({ 'GET /api/me/subscription': () => jsonResponse(200, subscription(tier)) });

  it('refuses a Starter licence of 11 seats in the form with the reason and the upgrade path, sending nothing; 10 go through', async () => {
    const state = { licenses: [] as License[] };
    const created: License = { ...granted, id: 'lic-2', leaderEmail: 'new@example.com', seatsTotal: 10, seatsUsed: 0, expiresAt: null };
    const { user, fetchMock } = renderEditor(state, {
      ...onPlan('starter'),
      [`POST ${LICENSES}`]: () => {
        state.licenses = [created];
        return jsonResponse(201, created);
      },
    });
    const licenses = await panel();
    await licenses.findByText('No team licences yet.', undefined, { timeout: 5000 });

    await user.click(licenses.getByRole('button', { name: 'Grant a licence' }));
    const dialog = screen.getByRole('dialog', { name: 'Grant a licence' });
    const seats = within(dialog).getByRole('spinbutton', { name: /Seats/ });
    expect(seats).toHaveAccessibleDescription('1 to 10 on your plan.');
    // Starter's licences have no end date: the field is locked, with Pro's mark and the reason.
    expect(within(dialog).queryByLabelText('Last day')).not.toBeInTheDocument();
    expect(within(dialog).getByTestId('locked-end-date')).toHaveTextContent('Licences on your plan have no end date. End dates are part of the Pro plan.');
    expect(within(dialog).getByRole('button', { name: 'Set an end date Pro' })).toBeInTheDocument();

    await user.type(within(dialog).getByRole('textbox', { name: /Leader email/ }), 'new@example.com');
    await user.type(seats, '11');
    await user.click(within(dialog).getByRole('button', { name: 'Grant licence' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Licences on your plan have up to 10 seats each. Team licences of any size are part of the Pro plan.');
    expect(within(dialog).getByRole('button', { name: 'Upgrade to Pro' })).toBeInTheDocument();
    expect(seats).toHaveAccessibleDescription(/Up to 10 seats on your plan\./);
    expect(callsTo(fetchMock, 'POST', LICENSES)).toEqual([]);

    await user.clear(seats);
    await user.type(seats, '10');
    await user.click(within(dialog).getByRole('button', { name: 'Grant licence' }));
    await vi.waitFor(() => expect(screen.queryByRole('dialog', { name: 'Grant a licence' })).not.toBeInTheDocument());
    expect(callsTo(fetchMock, 'POST', LICENSES)[0]?.body).toEqual({ leaderEmail: 'new@example.com', seats: 10 });
  });

  it("shows the server's PLAN_REQUIRED as the reason with the upgrade path, not a generic failure", async () => {
    const { user } = renderEditor(
      { licenses: [granted] },
      { [`PATCH ${LICENSES}/lic-1`]: () => errorResponse(403, 'PLAN_REQUIRED', 'Team licences over 10 seats are part of the Pro plan.', { requiredPlan: 'pro' }) },
    );
    const licenses = await panel();
    await user.click(await licenses.findByRole('button', { name: "Add seats to lead@example.com's licence" }, { timeout: 5000 }));
    const dialog = screen.getByRole('dialog', { name: 'Add seats' });
    const total = within(dialog).getByRole('spinbutton', { name: /Seats in total/ });
    await user.clear(total);
    await user.type(total, '50');
    await user.click(within(dialog).getByRole('button', { name: 'Save seats' }));
    const note = await within(dialog).findByRole('alert');
    expect(note).toHaveTextContent('Team licences over 10 seats are part of the Pro plan.');
    expect(within(note).getByRole('button', { name: 'Upgrade to Pro' })).toBeInTheDocument();
  });

  it('keeps a Starter creator from growing a licence past 10 seats, before sending', async () => {
    const small: License = { ...granted, seatsTotal: 8, expiresAt: null };
    const { user, fetchMock } = renderEditor({ licenses: [small] }, onPlan('starter'));
    const licenses = await panel();
    await user.click(await licenses.findByRole('button', { name: "Add seats to lead@example.com's licence" }, { timeout: 5000 }));
    const dialog = screen.getByRole('dialog', { name: 'Add seats' });
    const total = within(dialog).getByRole('spinbutton', { name: /Seats in total/ });
    await user.clear(total);
    await user.type(total, '11');
    await user.click(within(dialog).getByRole('button', { name: 'Save seats' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Licences on your plan have up to 10 seats each.');
    expect(callsTo(fetchMock, 'PATCH', `${LICENSES}/lic-1`)).toEqual([]);
  });

  it('shows a creator without a plan their licences read-only, with the way to a plan instead of Grant', async () => {
    renderEditor({ licenses: [granted] }, onPlan(null));
    const licenses = await panel();
    expect(await licenses.findByRole('link', { name: 'Choose a plan to grant team licences' }, { timeout: 5000 })).toHaveAttribute('href', '/dashboard/creator');
    await licenses.findByRole('list', { name: 'Licences' });
    expect(within(rowOf('lead@example.com')).getByText('3 of 10 seats used')).toBeInTheDocument();
    expect(licenses.queryByRole('button', { name: 'Grant a licence' })).not.toBeInTheDocument();
    expect(within(rowOf('lead@example.com')).queryByRole('button')).not.toBeInTheDocument();
  });
});
