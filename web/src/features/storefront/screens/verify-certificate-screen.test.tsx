import { screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CertificateView, PublicCertificate, VerifyCertificateResult } from '@contracts/certificates.ts';
import { callsTo, errorResponse, fakeApi, jsonResponse, renderWithProviders } from '@/test/render.tsx';
import { VerifyCertificateScreen } from './verify-certificate-screen.tsx';

// A visitor (an employer, a client): nobody is signed in, and nothing may need Amplify.
vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve(undefined)) }));

const ORIGIN = 'http://app.test';

// Midday: the same calendar day in every time zone the tests may run in.
const view: CertificateView = {
  id: 'cert-1',
  learner: 'a•••@example.com',
  courseTitle: 'Watercolour for Beginners',
  courseUrl: `${ORIGIN}/c/course-1`,
  creatorName: 'Maya Green',
  issuerName: 'Course Platform',
  issuedAt: '2026-11-20T12:00:00.000Z',
  revokedAt: null,
  revocationReason: null,
};
const valid: PublicCertificate = { credential: 'eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJjZXJ0LTEifQ.c2ln', status: 'valid', verified: true, certificate: view, branding: null };
const revoked: PublicCertificate = {
  ...valid,
  status: 'revoked',
  certificate: { ...view, revokedAt: '2026-12-03T12:00:00.000Z', revocationReason: 'Completed with a shared account.' },
};

const CERTIFICATE = 'GET /api/public/certificates/cert-1';
const VERIFY = 'POST /api/public/certificates/verify';

function renderPage(answer: () => Response, extra: Parameters<typeof fakeApi>[0] = {}) {
  const fetchMock = fakeApi({ [CERTIFICATE]: answer, ...extra });
  const rendered = renderWithProviders(
    <Routes>
      <Route path="/verify/:id" element={<VerifyCertificateScreen />} />
    </Routes>,
    { path: '/verify/cert-1' },
  );
  return { ...rendered, fetchMock };
}

const verdict = () => screen.getByRole('region', { name: 'Verification result' });

beforeEach(() => {
  vi.stubGlobal('location', { origin: ORIGIN, href: `${ORIGIN}/verify/cert-1` });
});
afterEach(() => {
  vi.unstubAllGlobals();
  document.title = '';
  for (const meta of document.head.querySelectorAll('meta')) meta.remove();
});

describe('the certificate page (/verify/:id)', () => {
  it("is framed by the issuing creator's school when branded: its mark links to the course, its colour on the page, its mark on the certificate, issued by it", async () => {
    const branding = { schoolName: 'Clay & Kiln', primaryColor: '#7c2d12', onPrimaryColor: '#ffffff' as const, logoUrl: 'http://files.test/avatars/u1/logos/l1?signed' };
    renderPage(() => jsonResponse(200, { ...valid, certificate: { ...view, issuerName: 'Clay & Kiln' }, branding }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Valid' })).toBeInTheDocument();
    const header = screen.getByRole('banner');
    expect(within(header).getByRole('link', { name: 'Clay & Kiln' })).toHaveAttribute('href', '/c/course-1');
    expect(within(header).getByTestId('school-logo')).toHaveAttribute('src', branding.logoUrl);
    expect(within(header).queryByText('Course Platform')).not.toBeInTheDocument();
    const frame = header.parentElement!;
    expect(frame).toHaveAttribute('data-branded', 'true');
    expect(frame.style.getPropertyValue('--color-primary')).toBe('#7c2d12');
    expect(frame.style.getPropertyValue('--color-primary-foreground')).toBe('#ffffff');
    expect(verdict()).toHaveTextContent('This certificate is genuine: it was issued by Clay & Kiln and its signature checks out.');
    const details = screen.getByRole('region', { name: 'Watercolour for Beginners' });
    expect(within(details).getByTestId('school-band')).toBeInTheDocument();
    expect(within(details).getByTestId('school-logo')).toHaveAttribute('src', branding.logoUrl);
    expect(within(details).getAllByText('Clay & Kiln')).toHaveLength(2);
    expect(details).toHaveTextContent('Issued byClay & Kiln');
    expect(screen.getByRole('contentinfo')).toHaveTextContent('Clay & Kiln · Powered by Course Platform');
  });

  it('looks as the platform\'s without branding: its name home, no school on the certificate', async () => {
    renderPage(() => jsonResponse(200, valid));
    const details = await screen.findByRole('region', { name: 'Watercolour for Beginners' });
    expect(within(details).queryByTestId('school-band')).not.toBeInTheDocument();
    expect(screen.getByRole('banner').parentElement).not.toHaveAttribute('data-branded');
    expect(screen.getByRole('contentinfo')).not.toHaveTextContent('Powered by');
  });

  it('says a valid certificate is valid, and what it says: who, which course, from whom, issued by whom and when; with its meta tags', async () => {
    renderPage(() => jsonResponse(200, valid));

    expect(await screen.findByRole('heading', { level: 1, name: 'Valid' })).toBeInTheDocument();
    expect(verdict()).toHaveAttribute('data-verdict', 'valid');
    expect(verdict()).toHaveTextContent('This certificate is genuine: it was issued by Course Platform and its signature checks out.');

    const details = screen.getByRole('region', { name: 'Watercolour for Beginners' });
    expect(details).toHaveTextContent('Awarded toa•••@example.com');
    expect(within(details).getByRole('link', { name: 'Watercolour for Beginners' })).toHaveAttribute('href', 'http://app.test/c/course-1');
    expect(within(details).getByText('From Maya Green')).toBeInTheDocument();
    expect(details).toHaveTextContent('Issued byCourse Platform');
    expect(details).toHaveTextContent('Issued20 Nov 2026');
    expect(details).toHaveTextContent('Certificate IDcert-1');

    expect(document.title).toBe('Certificate: Watercolour for Beginners · Course Platform');
    expect(document.head.querySelector('meta[name="description"]')).toHaveAttribute(
      'content',
      'A valid certificate of completion of “Watercolour for Beginners” from Maya Green, issued by Course Platform on 20 Nov 2026.',
    );
  });

  it('says a revoked certificate is revoked, when and why', async () => {
    renderPage(() => jsonResponse(200, revoked));

    expect(await screen.findByRole('heading', { level: 1, name: 'Revoked' })).toBeInTheDocument();
    expect(verdict()).toHaveAttribute('data-verdict', 'revoked');
    expect(verdict()).toHaveTextContent('This certificate was revoked on 3 Dec 2026.');
    expect(verdict()).toHaveTextContent('Reason: Completed with a shared account.');
    expect(screen.queryByRole('heading', { name: 'Valid' })).not.toBeInTheDocument();
    expect(document.head.querySelector('meta[name="description"]')?.getAttribute('content')).toMatch(/^A revoked certificate/);
  });

  it("says a certificate whose credential does not check out could not be verified", async () => {
    renderPage(() => jsonResponse(200, { ...valid, verified: false }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Could not be verified' })).toBeInTheDocument();
    expect(verdict()).toHaveAttribute('data-verdict', 'unverified');
    expect(verdict()).toHaveTextContent('Do not rely on what it says.');
    expect(screen.queryByRole('heading', { name: 'Valid' })).not.toBeInTheDocument();
  });

  it('says when there is no certificate at the address, and still offers to check a credential', async () => {
    renderPage(() => errorResponse(404, 'NOT_FOUND', 'Certificate not found.'));

    expect(await screen.findByRole('heading', { level: 1, name: 'Certificate not found' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Verification result' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Verify another credential/ })).toBeInTheDocument();
    expect(document.title).toBe('Certificate not found · Course Platform');
  });

  it("offers 'Try again' when the certificate cannot be checked", async () => {
    let fail = true;
    const { user } = renderPage(() => (fail ? errorResponse(500, 'INTERNAL', 'Boom') : jsonResponse(200, valid)));

    expect(await screen.findByRole('heading', { level: 1, name: 'This certificate could not be checked' })).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Valid' })).toBeInTheDocument();
  });

  it('checks a pasted credential: it sends it as typed (trimmed) and shows the verdict, the problems found and what it says', async () => {
    const answer: VerifyCertificateResult = {
      verified: false,
      status: 'invalid',
      errors: ['The signature does not match the issuer’s key.', 'The credential expired.'],
      certificate: null,
    };
    const { user, fetchMock } = renderPage(() => jsonResponse(200, valid), { [VERIFY]: () => jsonResponse(200, answer) });
    await screen.findByRole('heading', { level: 1, name: 'Valid' });

    const toggle = screen.getByRole('button', { name: /Verify another credential/ });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('textbox', { name: /Credential/ })).not.toBeInTheDocument();
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');

    const form = screen.getByRole('form', { name: 'Verify a credential' });
    const field = within(form).getByRole('textbox', { name: /Credential/ });
    await user.click(within(form).getByRole('button', { name: 'Verify' }));
    expect(field).toHaveAccessibleDescription(/Paste the credential to check\./);
    expect(callsTo(fetchMock, 'POST', '/api/public/certificates/verify')).toEqual([]);

    await user.type(field, '  eyJ.forged.jwt  ');
    await user.click(within(form).getByRole('button', { name: 'Verify' }));

    expect(await screen.findByRole('heading', { level: 3, name: 'Could not be verified' })).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/api/public/certificates/verify').map((call) => call.body)).toEqual([{ credential: 'eyJ.forged.jwt' }]);
    expect(within(screen.getByRole('list', { name: 'Problems found' })).getAllByRole('listitem').map((item) => item.textContent)).toEqual(answer.errors);
  });

  it('shows a pasted valid credential with what it says and a link to its page; a revoked one with its reason', async () => {
    const other: CertificateView = { ...view, id: 'cert-2', learner: 'b•••@example.com', courseTitle: 'Portraits in Ink' };
    let next: VerifyCertificateResult = { verified: true, status: 'valid', errors: [], certificate: other };
    const { user } = renderPage(() => jsonResponse(200, valid), { [VERIFY]: () => jsonResponse(200, next) });
    await screen.findByRole('heading', { level: 1, name: 'Valid' });
    await user.click(screen.getByRole('button', { name: /Verify another credential/ }));
    const field = screen.getByRole('textbox', { name: /Credential/ });

    await user.type(field, 'eyJ.good.jwt');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('heading', { level: 3, name: 'Valid' })).toBeInTheDocument();
    expect(screen.getByText('b•••@example.com')).toBeInTheDocument();
    expect(screen.getByText('Portraits in Ink')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open this certificate’s page' })).toHaveAttribute('href', '/verify/cert-2');
    expect(screen.queryByRole('list', { name: 'Problems found' })).not.toBeInTheDocument();

    next = { verified: true, status: 'revoked', errors: ['The credential was revoked.'], certificate: { ...other, revokedAt: '2026-12-03T12:00:00.000Z', revocationReason: 'Shared account.' } };
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('heading', { level: 3, name: 'Revoked' })).toBeInTheDocument();
    expect(screen.getAllByRole('region', { name: 'Verification result' }).at(-1)).toHaveTextContent('Reason: Shared account.');
  });

  it("shows the server's refusal of a pasted credential", async () => {
    const { user } = renderPage(() => jsonResponse(200, valid), { [VERIFY]: () => errorResponse(400, 'VALIDATION_FAILED', 'The credential is not a VC-JWT.') });
    await screen.findByRole('heading', { level: 1, name: 'Valid' });
    await user.click(screen.getByRole('button', { name: /Verify another credential/ }));
    await user.type(screen.getByRole('textbox', { name: /Credential/ }), 'hello');
    await user.click(screen.getByRole('button', { name: 'Verify' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('The credential is not a VC-JWT.');
  });
});
