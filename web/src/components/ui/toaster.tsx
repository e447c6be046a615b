import { Toaster as Sonner, toast, type ToasterProps } from 'sonner';
import { errorMessage } from '@/lib/error-message.ts';

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

/** SPEC.md's failure toast of an action: title 'Error', the server's message, or the action's `fallback` text. */
export function toastError(error: unknown, fallback: string): void {
  toast.error('Error', { description: errorMessage(error, fallback) });
}
