import { Toaster as Sonner, toast, type ToasterProps } from 'sonner';
import { planRequiredBy } from '@/lib/plan-required.ts';
import { errorMessage } from '@/lib/error-message.ts';
import { requestUpgrade, upgradeAvailable } from '@/lib/upgrade-requests.ts';

/** The app's one toast outlet. Call sites use `toast` / `toast.error` from 'sonner' with a title and a description. */
export function Toaster(props: ToasterProps) {
  return (
    <Sonner
      position="top-center"
      richColors
      closeButton
      toastOptions={{ classNames: { toast: 'font-sans', description: 'text-sm' } }}
      {...props}
    />
  );
}

// The one way to raise a toast: `toast.error('Sign in failed', { description: message })`.
export { toast };

/**
 * SPEC.md's failure toast of an action: title 'Error', the server's message, or the action's `fallback` text. A 403
 * PLAN_REQUIRED is no error but the way to a plan: titled by the plan, with the server's reason and, in the creator
 * area, an action that opens the upgrade path.
 */
export function toastError(error: unknown, fallback: string): void {
  const plan = planRequiredBy(error);
  if (plan) {
    const reason = errorMessage(error, fallback);
    toast.warning(plan === 'pro' ? 'Upgrade to Pro' : 'Choose a plan', {
      description: reason,
      ...(upgradeAvailable() ? { action: { label: plan === 'pro' ? 'Upgrade' : 'See plans', onClick: () => requestUpgrade({ plan, reason }) } } : {}),
    });
    return;
  }
  toast.error('Error', { description: errorMessage(error, fallback) });
}
