import { screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LearnerCertificate } from '@contracts/certificates.ts';
import { fakeApi, jsonResponse, renderWithProviders } from '@/test/render.tsx';
import { certificate } from '../test/fixtures.ts';
import { CertificatePrintScreen } from './certificate-print-screen.tsx';

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));
// The signed-in learner: their email is who a certificate without a name is awarded to.
vi.mock('@/lib/session-hooks.ts', () => ({
  useProfile: () => ({ isPending: false, data: { id: 'u1', email: 'ada@example.com', role: 'learner', createdAt: '2026-10-01T10:00:00.000Z' } }),
}));

let print: ReturnType<typeof vi.fn>;
beforeEach(() => {
  print = vi.fn();
  vi.stubGlobal('print', print);
});
afterEach(() => {
  vi.unstubAllGlobals();
  document.title = '';
});

const watercolour = certificate('cert-1', 'Watercolour for Beginners');

function openPrint(items: LearnerCertificate[], id = 'cert-1') {
  fakeApi({ 'GET /api/learner/certificates': () => jsonResponse(200, { nextCursor: null, items }) });
  return renderWithProviders(
    <Routes>
      <Route path="/certificates/:id/print" element={<CertificatePrintScreen />} />
    </Routes>,
    { path: `/certificates/${id}/print` },
  );
}

describe('CertificatePrintScreen (the PDF, from the print dialog)', () => {
  it('draws the certificate for the signed-in learner (by email, without a name on it) on an A4 landscape page and opens the print dialog', async () => {
    openPrint([certificate('cert-0', 'Another course'), watercolour]);

    const sheet = await screen.findByRole('article', { name: 'Certificate of Completion' });
    const on = within(sheet);
    expect(on.getByRole('heading', { level: 1, name: 'Certificate of Completion' })).toBeInTheDocument();
    expect(sheet).toHaveTextContent('This certificate is awarded to');
    expect(on.getByText('ada@example.com')).toBeInTheDocument();
    expect(on.getByText('Watercolour for Beginners')).toBeInTheDocument();
    expect(on.getByText('from Maya Green')).toBeInTheDocument();
    expect(on.getByText('Issued 20 November 2026')).toBeInTheDocument();
    expect(sheet).toHaveTextContent('Verify this certificate at https://app.test/verify/cert-1');
    expect(sheet).toHaveTextContent('Certificate ID cert-1');
    expect(on.getAllByText('Course Platform').length).toBeGreaterThan(0);
    expect(sheet).not.toHaveTextContent('Another course');

    // The printed page: A4 landscape, no margins; the tab's title names the saved PDF.
    expect([...document.querySelectorAll('style')].map((style) => style.textContent).join('\n')).toContain('@page { size: A4 landscape; margin: 0; }');
    expect(document.title).toBe('Certificate of Completion - Watercolour for Beginners');
    await vi.waitFor(() => expect(print).toHaveBeenCalledTimes(1));
  });

  it('awards it to the name the certificate carries once the learner gave one', async () => {
    openPrint([certificate('cert-1', 'Watercolour for Beginners', { learnerName: 'Ada Lovelace' })]);

    const sheet = await screen.findByRole('article', { name: 'Certificate of Completion' });
    expect(within(sheet).getByText('Ada Lovelace')).toBeInTheDocument();
    expect(sheet).not.toHaveTextContent('ada@example.com');
    await vi.waitFor(() => expect(print).toHaveBeenCalledTimes(1));
  });

  it("opens the print dialog again with 'Download PDF' and links back to the certificates", async () => {
    const { user } = openPrint([watercolour]);
    await vi.waitFor(() => expect(print).toHaveBeenCalledTimes(1));

    await user.click(screen.getByRole('button', { name: 'Download PDF' }));
    expect(print).toHaveBeenCalledTimes(2);
    expect(screen.getByRole('link', { name: 'My certificates' })).toHaveAttribute('href', '/dashboard/learner/certificates');
  });

  it('prints nothing for a revoked certificate, and says why', async () => {
    openPrint([certificate('cert-1', 'Watercolour for Beginners', { status: 'revoked' })]);

    expect(await screen.findByRole('heading', { name: 'This certificate was revoked' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'View its page' })).toHaveAttribute('href', 'https://app.test/verify/cert-1');
    expect(screen.queryByRole('article')).not.toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(print).not.toHaveBeenCalled();
  });

  it("says so when the certificate is not one of the learner's", async () => {
    openPrint([watercolour], 'cert-9');
    expect(await screen.findByRole('heading', { name: 'Certificate not found' })).toBeInTheDocument();
    expect(screen.queryByRole('article')).not.toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(print).not.toHaveBeenCalled();
  });
});
