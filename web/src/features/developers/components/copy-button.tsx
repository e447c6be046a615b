import { Check, Copy } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { toast } from '@/components/ui/toaster.tsx';
import { developersMessages as m } from '../developers-messages.ts';

/** 'Copy': puts `text` on the clipboard and says 'Copied' for a moment (a toast if the browser refuses). */
export function CopyButton({ text, label = m.copy }: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = () => {
    const written = navigator.clipboard?.writeText(text) ?? Promise.reject(new Error('no clipboard'));
    written.then(
      () => setCopied(true),
      () => toast.error('Error', { description: m.copyFailed }),
    );
  };
  return (
    <Button type="button" variant="outline" aria-label={copied ? m.copied : label} onClick={copy}>
      {copied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
      {copied ? m.copied : m.copy}
      <span className="sr-only" aria-live="polite">
        {copied ? `${m.copied} to the clipboard` : ''}
      </span>
    </Button>
  );
}
