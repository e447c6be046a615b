import type { QueryClient } from '@tanstack/react-query';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LearnerCertificate } from '@contracts/certificates.ts';
import { toast } from '@/components/ui/toaster.tsx';
import { paths } from '@/lib/paths.ts';
import { callsTo, errorResponse, fakeApi, jsonResponse, renderWithProviders } from '@/test/render.tsx';
import { spyOnToasts } from '@/test/toasts.ts';
import { certificate, learnerProfile } from '../test/fixtures.ts';
import { certificateMessages, LearnerCertificatesScreen } from './learner-certificates-screen.tsx';

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));
spyOnToasts();
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const CERTIFICATES = '/api/learner/certificates';
const PROFILE = '/api/learner/profile';
/** The learner's certificates, and their profile: a name on certificates unless told (so no notice to add one). */
const api = (items: LearnerCertificate[], certificateName = 'Ada Lovelace') =>
  fakeApi({ [`GET ${CERTIFICATES}`]: () => jsonResponse(200, { nextCursor: null, items }), [`GET ${PROFILE}`]: () => jsonResponse(200, learnerProfile({ certificateName })) });
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
    const fetchMock = fakeApi({
      [`GET ${CERTIFICATES}`]: () => (fail ? errorResponse(500, 'INTERNAL', 'Boom') : jsonResponse(200, { nextCursor: null, items: [watercolour] })),
      [`GET ${PROFILE}`]: () => jsonResponse(200, learnerProfile({ certificateName: 'Ada Lovelace' })),
    });
    const { user } = open();

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Your certificates could not be loaded');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));

    expect(await screen.findByRole('heading', { name: 'Watercolour for Beginners' })).toBeInTheDocument();
    expect(callsTo(fetchMock, 'GET', CERTIFICATES)).toHaveLength(2);
  });
  describe('the notice to add a name', () => {
    const notice = () => screen.queryByRole('region', { name: certificateMessages.addName.title });
    /** Once the profile has answered (the notice waits for it, the list does not). */
    const profileSettled = (queryClient: QueryClient, status: 'success' | 'error' = 'success') =>
      vi.waitFor(() => expect(queryClient.getQueryState(['learning', 'profile'])?.status).toBe(status));

    it('asks for the name to print when the certificates show the masked email', async () => {
      const fetchMock = api([watercolour], '');
      open();
      const region = await screen.findByRole('region', { name: certificateMessages.addName.title });

      expect(region).toHaveTextContent(certificateMessages.addName.text);
      expect(within(region).getByRole('link', { name: 'Add your name' })).toHaveAttribute('href', paths.learner.profile);
      expect(within(region).getByRole('heading', { name: 'Add your name to your certificates' })).toBeInTheDocument();
      expect(certificateMessages.addName.text).toBe('They show your email address, partly hidden, until you add the name to print on them.');
      // Above the list, which it does not hold back.
      const list = screen.getByRole('list', { name: 'Your certificates' });
      expect(region.compareDocumentPosition(list) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
      expect(callsTo(fetchMock, 'GET', PROFILE)).toHaveLength(1);
    });

    it('says nothing once the learner has given a name, and each card says who it is awarded to', async () => {
      api([certificate('cert-1', 'Watercolour for Beginners', { learnerName: 'Ada Lovelace' }), ink]);
      const { queryClient } = open();
      await screen.findByRole('list', { name: 'Your certificates' });
      await profileSettled(queryClient);

      expect(cardOf('Watercolour for Beginners').getByText('Awarded to Ada Lovelace')).toBeInTheDocument();
      // Issued before the learner gave the name: it names no one.
      expect(cardOf('Portraits in Ink').queryByText(/Awarded to/)).not.toBeInTheDocument();
      expect(notice()).not.toBeInTheDocument();
    });

    it('says nothing when there are no certificates yet', async () => {
      api([], '');
      const { queryClient } = open();
      expect(await screen.findByRole('heading', { name: 'No certificates yet' })).toBeInTheDocument();
      await profileSettled(queryClient);
      expect(notice()).not.toBeInTheDocument();
    });

    it('lists the certificates without the notice when the profile cannot be loaded', async () => {
      fakeApi({ [`GET ${CERTIFICATES}`]: () => jsonResponse(200, { nextCursor: null, items: [watercolour] }), [`GET ${PROFILE}`]: () => errorResponse(500, 'INTERNAL', 'Boom') });
      const { queryClient } = open();
      expect(await screen.findByRole('heading', { name: 'Watercolour for Beginners' })).toBeInTheDocument();
      await profileSettled(queryClient, 'error');
      expect(notice()).not.toBeInTheDocument();
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    });
  });
});
