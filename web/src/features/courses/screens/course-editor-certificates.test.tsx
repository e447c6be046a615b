import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CourseCertificate } from '@contracts/certificates.ts';
import { toast } from '@/components/ui/toaster.tsx';
import type { fakeApi} from '@/test/render.tsx';
import { callsTo, errorResponse, jsonResponse } from '@/test/render.tsx';
import { spyOnToasts } from '@/test/toasts.ts';
import { certificateMessages } from '../api/use-course-mutations.ts';
import { paintingCourse } from '../test/fixtures.ts';
import { COURSE, renderCourseEditor } from '../test/render-editor.tsx';

// The course editor's certificates (issue 15): the creator sees the certificates the course's learners earned, opens
// each one's public page, and revokes one with a reason.

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));
spyOnToasts();
afterEach(() => vi.unstubAllGlobals());

const CERTIFICATES = `${COURSE}/certificates`;

// Midday: the same calendar day in every time zone the tests may run in.
const ada: CourseCertificate = {
  id: 'cert-ada',
  learnerEmail: 'ada@example.com',
  issuedAt: '2026-11-20T12:00:00.000Z',
  status: 'valid',
  revokedAt: null,
  revocationReason: null,
  verifyUrl: 'https://app.test/verify/cert-ada',
};
const bob: CourseCertificate = {
  ...ada,
  id: 'cert-bob',
  learnerEmail: 'bob@example.com',
  issuedAt: '2026-11-18T12:00:00.000Z',
  status: 'revoked',
  revokedAt: '2026-11-19T12:00:00.000Z',
  revocationReason: 'Completed with a shared account.',
  verifyUrl: 'https://app.test/verify/cert-bob',
};

/** The editor of course-1 against a fake server holding the certificates in `state`; the writes come in `extra`. */
function renderEditor(state: { certificates: CourseCertificate[] }, extra: Parameters<typeof fakeApi>[0] = {}) {
  return renderCourseEditor(() => paintingCourse, { [`GET ${CERTIFICATES}`]: () => jsonResponse(200, { items: state.certificates, nextCursor: null }), ...extra });
}

const panel = async () => within(await screen.findByRole('region', { name: 'Certificates' }));
const rowOf = (email: string) => screen.getAllByTestId('certificate-row').find((row) => row.textContent?.includes(email))!;

describe('CourseEditorScreen: certificates', () => {
  it("lists each certificate's learner, issue day and status, with its public page; only a valid one can be revoked", async () => {
    renderEditor({ certificates: [ada, bob] });
    const certificates = await panel();
    await certificates.findByRole('list', { name: 'Issued certificates' }, { timeout: 5000 });

    const first = within(rowOf('ada@example.com'));
    expect(first.getByText('Valid')).toBeInTheDocument();
    expect(first.getByText('Issued 20 Nov 2026')).toBeInTheDocument();
    const view = first.getByRole('link', { name: "View ada@example.com's certificate" });
    expect(view).toHaveAttribute('href', 'https://app.test/verify/cert-ada');
    expect(view).toHaveAttribute('target', '_blank');
    expect(view.getAttribute('rel')).toContain('noopener');
    expect(first.getByRole('button', { name: "Revoke ada@example.com's certificate" })).toBeInTheDocument();

    const second = within(rowOf('bob@example.com'));
    expect(second.getByText('Revoked')).toBeInTheDocument();
    expect(second.getByText('Issued 18 Nov 2026 · Revoked 19 Nov 2026')).toBeInTheDocument();
    expect(second.getByText('Reason: Completed with a shared account.')).toBeInTheDocument();
    expect(second.getByRole('link', { name: "View bob@example.com's certificate" })).toHaveAttribute('href', 'https://app.test/verify/cert-bob');
    expect(second.queryByRole('button', { name: /Revoke/ })).not.toBeInTheDocument();
  });

  it('shows the first page, and the next one on "Load more" (by keyboard), until there is none', async () => {
    const { user } = renderEditor(
      { certificates: [] },
      {
        [`GET ${CERTIFICATES}`]: () => jsonResponse(200, { items: [ada], nextCursor: 'page/2' }),
        [`GET ${CERTIFICATES}?cursor=page%2F2`]: () => jsonResponse(200, { items: [bob], nextCursor: null }),
      },
    );
    const certificates = await panel();
    await certificates.findByRole('list', { name: 'Issued certificates' }, { timeout: 5000 });
    expect(screen.getAllByTestId('certificate-row')).toHaveLength(1);
    certificates.getByRole('button', { name: 'Load more' }).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.getAllByTestId('certificate-row')).toHaveLength(2));
    expect(rowOf('bob@example.com')).toBeDefined();
    expect(certificates.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('says how certificates come when there are none yet', async () => {
    renderEditor({ certificates: [] });
    const certificates = await panel();
    expect(await certificates.findByText('No certificates yet. Learners earn one when they complete the course.', undefined, { timeout: 5000 })).toBeInTheDocument();
  });

  it('revokes a certificate: the reason is required, is sent, a toast says so and the list is loaded again', async () => {
    const state = { certificates: [ada] };
    const { user, fetchMock } = renderEditor(state, {
      [`POST /api/certificates/cert-ada/revoke`]: (init) => {
        const { reason } = JSON.parse(String(init?.body)) as { reason: string };
        state.certificates = [{ ...ada, status: 'revoked', revokedAt: '2026-11-25T12:00:00.000Z', revocationReason: reason }];
        return jsonResponse(200, { status: 'revoked' });
      },
    });
    const certificates = await panel();
    await user.click(await certificates.findByRole('button', { name: "Revoke ada@example.com's certificate" }, { timeout: 5000 }));

    const dialog = screen.getByRole('dialog', { name: 'Revoke certificate' });
    expect(dialog).toHaveTextContent(/ada@example.com's certificate of “Watercolour for Beginners” will show as revoked/);
    const reason = within(dialog).getByRole('textbox', { name: /Reason/ });
    await user.click(within(dialog).getByRole('button', { name: 'Revoke certificate' }));
    expect(reason).toHaveAccessibleDescription(/Say why the certificate is revoked\./);
    expect(callsTo(fetchMock, 'POST', '/api/certificates/cert-ada/revoke')).toEqual([]);

    await user.type(reason, '  Plagiarised quiz answers. ');
    await user.click(within(dialog).getByRole('button', { name: 'Revoke certificate' }));

    await vi.waitFor(() => expect(screen.queryByRole('dialog', { name: 'Revoke certificate' })).not.toBeInTheDocument());
    expect(callsTo(fetchMock, 'POST', '/api/certificates/cert-ada/revoke').map((call) => call.body)).toEqual([{ reason: 'Plagiarised quiz answers.' }]);
    expect(toast.success).toHaveBeenCalledWith(certificateMessages.revoked.title, expect.anything());
    expect(certificateMessages.revoked.title).toBe('Certificate revoked');
    await vi.waitFor(() => expect(within(rowOf('ada@example.com')).getByText('Revoked')).toBeInTheDocument());
    expect(callsTo(fetchMock, 'GET', CERTIFICATES)).toHaveLength(2);
    expect(within(rowOf('ada@example.com')).getByText('Reason: Plagiarised quiz answers.')).toBeInTheDocument();
    expect(within(rowOf('ada@example.com')).queryByRole('button', { name: /Revoke/ })).not.toBeInTheDocument();
  });

  it("shows the server's refusal in the dialog and keeps it open", async () => {
    const message = 'This certificate is already revoked.';
    const { user } = renderEditor({ certificates: [ada] }, { [`POST /api/certificates/cert-ada/revoke`]: () => errorResponse(409, 'CONFLICT', message) });
    const certificates = await panel();
    await user.click(await certificates.findByRole('button', { name: "Revoke ada@example.com's certificate" }, { timeout: 5000 }));

    const dialog = screen.getByRole('dialog', { name: 'Revoke certificate' });
    await user.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'Duplicate.');
    await user.click(within(dialog).getByRole('button', { name: 'Revoke certificate' }));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent(message);
    expect(screen.getByRole('dialog', { name: 'Revoke certificate' })).toBeInTheDocument();
    expect(toast.success).not.toHaveBeenCalled();
    expect(within(rowOf('ada@example.com')).getByText('Valid')).toBeInTheDocument();
  });

  it("offers 'Try again' when the certificates cannot be loaded", async () => {
    let fail = true;
    const { user } = renderEditor({ certificates: [] }, { [`GET ${CERTIFICATES}`]: () => (fail ? errorResponse(500, 'INTERNAL', 'Boom') : jsonResponse(200, { items: [ada], nextCursor: null })) });
    const certificates = await panel();
    const alert = await certificates.findByRole('alert', undefined, { timeout: 5000 });
    expect(alert).toHaveTextContent('The certificates could not be loaded.');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await certificates.findByText('ada@example.com')).toBeInTheDocument();
  });
});
