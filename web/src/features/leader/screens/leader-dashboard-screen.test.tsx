import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders, statCard } from '@/test/render.tsx';
import { LeaderDashboardScreen } from './leader-dashboard-screen.tsx';

describe('LeaderDashboardScreen', () => {
  it("shows the spec's figures (team members, licenses, completion rate, certificates) with their team lists", () => {
    renderWithProviders(<LeaderDashboardScreen />);
    expect(statCard('Team Members')).toHaveTextContent('31');
    expect(statCard('Licenses')).toHaveTextContent('31 / 50');
    expect(statCard('Completion Rate')).toHaveTextContent('57%');
    expect(statCard('Certificates')).toHaveTextContent('14');
    expect(screen.getByRole('heading', { name: 'Team Progress' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'License Usage' })).toBeInTheDocument();
  });

  it('says plainly that the figures are samples until a course is licensed to the leader, so nobody takes them for their team', () => {
    renderWithProviders(<LeaderDashboardScreen />);
    expect(screen.getByText('Sample data')).toBeInTheDocument();
    const note = screen.getByRole('note', { name: 'About these figures' });
    expect(within(note).getByText('These figures are samples.')).toBeInTheDocument();
    expect(note).toHaveTextContent('once a creator licenses a course to you');
  });
});
