import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LearnerCertificate } from '@contracts/certificates.ts';
import { toast } from '@/components/ui/toaster.tsx';
import { paths } from '@/lib/paths.ts';
import { callsTo, errorResponse, fakeApi, jsonResponse, renderWithProviders } from '@/test/render.tsx';
import { certificate } from '../test/fixtures.ts';
import { certificateMessages, LearnerCertificatesScreen } from './learner-certificates-screen.tsx';

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));
beforeEach(() => {
  vi.spyOn(toast, 'success');
  vi.spyOn(toast, 'error');
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const CERTIFICATES = '/api/learner/certificates';
const api = (items: LearnerCertificate[]) => fakeApi({ [`GET ${CERTIFICATES}`]: () => jsonResponse(200, { items }) });
const open = () => renderWithProviders(<LearnerCertificatesScreen />, { path: paths.learner.certificates });
const cardOf = (title: string) => within(screen.getAllByTestId('certificate-card').find((card) => card.querySelector('h2')?.textContent === title)!);

const watercolour = certificate('cert-1', 'Watercolour for Beginners');
const ink = certificate('cert-2', 'Portraits in Ink', { creatorName: 'Sam Lee', issuedAt: '2026-10-02T12:00:00.000Z', status: 'revoked' });

describe('LearnerCertificatesScreen', () => {
  it("lists each certificate with its course, creator and issue day, and links to its PDF, its page and LinkedIn's form", async () => {
    api([watercolour, ink]);
    open();
    expect(await screen.findByRole('status')).toHaveTextContent('Loading your certificates...');
    await screen.findByRole('list', { name: 'Your certificates' });

    expect(screen.getByRole('heading', { level: 1, name: 'Certificates' })).toBeInTheDocument();
    const first = cardOf('Watercolour for Beginners');
    expect(first.getByText('From Maya Green')).toBeInTheDocument();
    expect(first.getByText('20 Nov 2026')).toHaveAttribute('dateTime', '2026-11-20T12:00:00.000Z');
    expect(first.queryByText('Revoked')).not.toBeInTheDocument();

    const pdf = first.getByRole('link', { name: 'Download PDF of Watercolour for Beginners' });
    expect(pdf).toHaveAttribute('href', '/certificates/cert-1/print');
    expect(pdf).toHaveAttribute('target', '_blank');
    const view = first.getByRole('link', { name: 'View the certificate of Watercolour for Beginners' });
    expect(view).toHaveAttribute('href', 'https://app.test/verify/cert-1');
    expect(view).toHaveAttribute('target', '_blank');
    const linkedIn = first.getByRole('link', { name: 'Add to LinkedIn: Watercolour for Beginners' });
    expect(linkedIn).toHaveAttribute('href', watercolour.linkedInUrl);
    expect(linkedIn).toHaveAttribute('target', '_blank');
    expect(linkedIn.getAttribute('rel')).toContain('noopener');
    expect(first.getByRole('button', { name: 'Copy link to the certificate of Watercolour for Beginners' })).toHaveTextContent('Copy link');
  });

  it('marks a revoked certificate and offers only its page and its link: no PDF, no LinkedIn', async () => {
    api([ink]);
    open();
    await screen.findByRole('list', { name: 'Your certificates' });

    const card = cardOf('Portraits in Ink');
    expect(card.getByText('Revoked')).toBeInTheDocument();
    expect(card.getByText('From Sam Lee')).toBeInTheDocument();
    expect(card.getByText('2 Oct 2026')).toBeInTheDocument();
    expect(card.getByRole('link', { name: 'View the certificate of Portraits in Ink' })).toHaveAttribute('href', 'https://app.test/verify/cert-2');
    expect(card.queryByRole('link', { name: /Download PDF/ })).not.toBeInTheDocument();
    expect(card.queryByRole('link', { name: /LinkedIn/ })).not.toBeInTheDocument();
    expect(card.getByRole('button', { name: /Copy link/ })).toBeInTheDocument();
  });

  it("copies the certificate's public link and says so", async () => {
    api([watercolour, ink]);
    const { user } = open();
    await screen.findByRole('list', { name: 'Your certificates' });

    await user.click(cardOf('Watercolour for Beginners').getByRole('button', { name: /Copy link/ }));

    // user-event stands in for the clipboard.
    expect(await navigator.clipboard.readText()).toBe('https://app.test/verify/cert-1');
    expect(toast.success).toHaveBeenCalledWith(certificateMessages.copied, { description: 'https://app.test/verify/cert-1' });
    expect(certificateMessages.copied).toBe('Link copied');
  });

  it('says so when the clipboard refuses', async () => {
    api([watercolour]);
    const { user } = open();
    await screen.findByRole('list', { name: 'Your certificates' });
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new DOMException('Denied', 'NotAllowedError'));

    await user.click(screen.getByRole('button', { name: /Copy link/ }));

    await vi.waitFor(() => expect(toast.error).toHaveBeenCalledWith('Error', { description: certificateMessages.copyFailed }));
    expect(toast.success).not.toHaveBeenCalled();
  });

  it('says how certificates are earned when there are none yet', async () => {
    api([]);
    open();
    expect(await screen.findByRole('heading', { name: 'No certificates yet' })).toBeInTheDocument();
    expect(screen.getByText(/Finish a course to earn its certificate/)).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Your certificates' })).not.toBeInTheDocument();
  });

  it("offers 'Try again' when the certificates cannot be loaded, and lists them once they can", async () => {
    let fail = true;
    const fetchMock = fakeApi({ [`GET ${CERTIFICATES}`]: () => (fail ? errorResponse(500, 'INTERNAL', 'Boom') : jsonResponse(200, { items: [watercolour] })) });
    const { user } = open();

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Your certificates could not be loaded');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));

    expect(await screen.findByRole('heading', { name: 'Watercolour for Beginners' })).toBeInTheDocument();
    expect(callsTo(fetchMock, 'GET', CERTIFICATES)).toHaveLength(2);
  });
});
