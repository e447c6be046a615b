import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, jsonResponse, renderWithProviders } from '@/test/render.tsx';
import { YourDataSection, yourDataMessages as m } from './your-data-section.tsx';

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));
afterEach(() => {
  localStorage.clear();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('YourDataSection', () => {
  it('requests an export, shows it preparing, then ready with its link and expiry', async () => {
    let polls = 0;
    fakeApi({
      'POST /api/me/exports': () => jsonResponse(202, { exportId: 'x1' }),
      'GET /api/me/exports/x1': () =>
        ++polls === 1 ? jsonResponse(200, { status: 'pending' }) : jsonResponse(200, { status: 'ready', url: 'https://files.example/x1.zip', expiresAt: '2026-11-30T10:00:00.000Z' }),
    });
    renderWithProviders(<YourDataSection />);
    await userEvent.click(await screen.findByRole('button', { name: m.request }));
    expect(await screen.findByText(m.preparing)).toBeInTheDocument();
    const link = await screen.findByRole('link', { name: m.download }, { timeout: 5000 });
    expect(link).toHaveAttribute('href', 'https://files.example/x1.zip');
    expect(screen.getByTestId('your-data-status')).toHaveTextContent('The link works until 30 November 2026');
  });

  it('offers a new copy once the link has expired', async () => {
    localStorage.setItem('personal-export-id', 'x1');
    fakeApi({ 'GET /api/me/exports/x1': () => jsonResponse(200, { status: 'expired', expiresAt: '2026-11-30T10:00:00.000Z' }) });
    renderWithProviders(<YourDataSection />);
    expect(await screen.findByText(m.expired)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: m.again })).toBeEnabled();
  });
});
