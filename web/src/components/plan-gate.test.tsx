import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SubscriptionResponse } from '@contracts/billing.ts';
import { Button } from '@/components/ui/button.tsx';
import { toastError } from '@/components/ui/toaster.tsx';
import { ApiError } from '@/lib/api-error.ts';
import { paths } from '@/lib/paths.ts';
import { subscription } from '@/test/fixtures.ts';
import { fakeApi, findToast, jsonResponse, renderWithProviders } from '@/test/render.tsx';
import { PlanGate, PlanRequiredNote, UpgradeHost, type UpgradeActions } from './plan-gate.tsx';

afterEach(() => vi.unstubAllGlobals());

const actions = (): UpgradeActions => ({ checkout: vi.fn(), portal: vi.fn(), busy: false });

/** A Pro-only control and a Starter one behind their gates, with the creator area's upgrade dialog, on this plan. */
function open(plan: SubscriptionResponse, upgrade = actions()) {
  fakeApi({ 'GET /api/me/subscription': () => jsonResponse(200, plan) });
  const rendered = renderWithProviders(
    <>
      <PlanGate feature="affiliates" label="Add affiliate" action="add affiliates">
        <Button>Add affiliate</Button>
      </PlanGate>
      <PlanGate feature="courses" label="Create Course" action="create courses">
        <Button>Create Course</Button>
      </PlanGate>
      <UpgradeHost actions={upgrade} />
    </>,
    { path: paths.creator.courses },
  );
  return { ...rendered, upgrade };
}

describe('PlanGate', () => {
  it('shows a Pro creator the controls themselves, no lock', async () => {
    open(subscription('pro'));
    expect(await screen.findByRole('button', { name: 'Add affiliate' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create Course' })).toBeInTheDocument();
    expect(screen.queryByTestId('pro-lock')).not.toBeInTheDocument();
  });

  it("shows a Starter creator the Pro control locked; a click opens 'Upgrade to Pro' with the reason, through the billing portal", async () => {
    const { user, upgrade } = open(subscription('starter'));
    const locked = await screen.findByRole('button', { name: 'Add affiliate Pro' });
    expect(within(locked).getByTestId('pro-lock')).toHaveTextContent('Pro');
    expect(screen.getByRole('button', { name: 'Create Course' })).toBeInTheDocument();

    await user.click(locked);
    const dialog = await screen.findByRole('dialog', { name: 'Upgrade to Pro' });
    expect(dialog).toHaveTextContent('Add affiliates is part of the Pro plan.');
    // A subscriber changes plan in the portal: a second checkout would be refused.
    await user.click(within(dialog).getByRole('button', { name: 'Change plan in billing' }));
    expect(upgrade.portal).toHaveBeenCalledOnce();
    expect(upgrade.checkout).not.toHaveBeenCalled();
  });

  it("shows a creator without a plan 'Choose a plan to ...' for Starter's controls, and Pro's checkout for Pro's", async () => {
    const { user, upgrade } = open(subscription(null));
    const choose = await screen.findByRole('link', { name: 'Choose a plan to create courses' });
    expect(choose).toHaveAttribute('href', paths.creator.dashboard);
    expect(screen.queryByRole('button', { name: 'Create Course' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Add affiliate Pro' }));
    const dialog = await screen.findByRole('dialog', { name: 'Upgrade to Pro' });
    await user.click(within(dialog).getByRole('button', { name: 'Upgrade to Pro' }));
    expect(upgrade.checkout).toHaveBeenCalledWith('pro');
    expect(upgrade.portal).not.toHaveBeenCalled();
  });

  it('treats an ended subscription as no plan', async () => {
    open(subscription('pro', { status: 'canceled', subscribed: false }));
    expect(await screen.findByRole('link', { name: 'Choose a plan to create courses' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add affiliate Pro' })).toBeInTheDocument();
  });

  it('locks nothing while the plan is loading or could not be loaded (the server stays the wall)', async () => {
    fakeApi({ 'GET /api/me/subscription': () => jsonResponse(500, { error: { code: 'INTERNAL', message: 'Boom' } }) });
    renderWithProviders(
      <PlanGate feature="affiliates" label="Add affiliate" action="add affiliates">
        <Button>Add affiliate</Button>
      </PlanGate>,
    );
    expect(screen.getByRole('button', { name: 'Add affiliate' })).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.getByRole('button', { name: 'Add affiliate' })).toBeInTheDocument();
  });
});

describe('a PLAN_REQUIRED refusal', () => {
  it("is the upgrade message, not 'Error': its reason, and an 'Upgrade' action that opens the upgrade path", async () => {
    open(subscription('starter'));
    await screen.findByRole('button', { name: 'Add affiliate Pro' });
    toastError(new ApiError(403, 'PLAN_REQUIRED', 'Team licences over 10 seats are part of the Pro plan.', { requiredPlan: 'pro' }), 'Failed');
    const toast = await findToast('Team licences over 10 seats are part of the Pro plan.');
    expect(toast).toHaveTextContent('Upgrade to Pro');
    expect(toast).not.toHaveTextContent('Error');
    // A plain click: sonner's swipe handling wants pointer capture, which jsdom lacks.
    fireEvent.click(within(toast).getByRole('button', { name: 'Upgrade' }));
    expect(await screen.findByRole('dialog', { name: 'Upgrade to Pro' })).toHaveTextContent('Team licences over 10 seats are part of the Pro plan.');
  });

  it('in a form: the reason and the way to upgrade', async () => {
    const { user } = open(subscription(null));
    renderWithProviders(<PlanRequiredNote plan="pro" reason="End dates are part of the Pro plan." />);
    const note = screen.getByRole('alert');
    expect(note).toHaveTextContent('End dates are part of the Pro plan.');
    await user.click(within(note).getByRole('button', { name: 'Upgrade to Pro' }));
    expect(await screen.findByRole('dialog', { name: 'Upgrade to Pro' })).toHaveTextContent('End dates are part of the Pro plan.');
  });

  it('outside the creator area (a leader): the reason alone', () => {
    renderWithProviders(<PlanRequiredNote plan="pro" reason="Importing members from a file needs the creator's Pro plan." upgradable={false} />);
    expect(screen.getByRole('alert')).toHaveTextContent("Importing members from a file needs the creator's Pro plan.");
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });
});
