import { useRef } from 'react';
import { toast } from '@/components/ui/toaster.tsx';

/**
 * 'Copy' beside a link shown in a read-only field (an affiliate's link, a bundle's page): `copy` puts `link` on the
 * clipboard and toasts `copied` with it; without a clipboard (an insecure page, a refused permission) it selects the
 * field (`field`, its ref), ready for Ctrl+C, and toasts `copyFailed`.
 */
export function useCopyLink(link: string, messages: { copied: string; copyFailed: string }) {
  const field = useRef<HTMLInputElement>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      toast.success(messages.copied, { description: link });
    } catch {
      field.current?.focus();
      field.current?.select();
      toast.error('Error', { description: messages.copyFailed });
    }
  };
  return { field, copy };
}
