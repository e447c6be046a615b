import { Toaster as Sonner, type ToasterProps } from 'sonner';

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
export { toast } from 'sonner';
