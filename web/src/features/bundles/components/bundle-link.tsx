import { Copy } from 'lucide-react';
import { useRef } from 'react';
import type { Bundle } from '@contracts/bundles.ts';
import { Button } from '@/components/ui/button.tsx';
import { Input } from '@/components/ui/input.tsx';
import { toast } from '@/components/ui/toaster.tsx';
import { bundleLinkOf } from '../bundle-format.ts';
import { bundlesMessages as m } from '../bundles-messages.ts';

/** The bundle's public page in a read-only field (to copy by hand) and 'Copy link' (as an affiliate's link). */
export function BundleLink({ bundle }: { bundle: Pick<Bundle, 'id' | 'title'> }) {
  const field = useRef<HTMLInputElement>(null);
  const link = bundleLinkOf(bundle.id);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      toast.success(m.link.copied, { description: link });
    } catch {
      // No clipboard (an insecure page, a refused permission): the link is selected, ready for Ctrl+C.
      field.current?.focus();
      field.current?.select();
      toast.error('Error', { description: m.link.copyFailed });
    }
  };
  return (
    <div className="flex min-w-0 items-center gap-2">
      <Input
        ref={field}
        readOnly
        value={link}
        aria-label={`Link of ${bundle.title}`}
        onFocus={(event) => event.target.select()}
        className="h-10 min-w-0 flex-1 font-mono sm:h-8 sm:text-xs"
      />
      <Button variant="outline" size="sm" className="max-sm:h-10" aria-label={`Copy link of ${bundle.title}`} onClick={() => void copy()}>
        <Copy aria-hidden="true" />
        Copy
      </Button>
    </div>
  );
}
