import type { PlanType } from '@contracts/plans.ts';

/** A control's (or a refusal's) wish to show the way to a plan: which plan, and why, in words. */
export interface UpgradeRequest {
  plan: PlanType;
  reason: string;
}

type Listener = (request: UpgradeRequest) => void;
const listeners = new Set<Listener>();

/**
 * Asks for the upgrade path (the creator area's upgrade dialog listens: app/routes/creator-area.tsx). Returns whether
 * anyone showed it: outside the creator area (a leader's screen) nobody listens, and the caller shows the reason alone.
 */
export function requestUpgrade(request: UpgradeRequest): boolean {
  for (const listener of listeners) listener(request);
  return listeners.size > 0;
}

/** Whether an upgrade dialog is listening (a toast offers its 'Upgrade' action only then). */
export const upgradeAvailable = (): boolean => listeners.size > 0;

/** Listens for upgrade requests until the returned function is called. */
export function onUpgradeRequest(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
