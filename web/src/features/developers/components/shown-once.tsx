import { TriangleAlert } from 'lucide-react';
import { useId } from 'react';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { developersMessages as m } from '../developers-messages.ts';
import { CopyButton } from './copy-button.tsx';

/** A secret shown this once: read-only (selected on focus), 'Copy', and the warning that it will not be shown again. */
export function ShownOnce({ label, value, copyLabel }: { label: string; value: string; copyLabel: string }) {
  const id = useId();
  return (
    <div className="grid gap-3">
      <div className="grid gap-2">
        <Label htmlFor={id}>{label}</Label>
        <div className="flex gap-2 max-sm:flex-col">
          <Input
            id={id}
            readOnly
            value={value}
            aria-describedby={`${id}-warning`}
            spellCheck={false}
            autoComplete="off"
            className="min-w-0 flex-1 font-mono text-sm"
            onFocus={(event) => event.currentTarget.select()}
          />
          <CopyButton text={value} label={copyLabel} />
        </div>
      </div>
      <p id={`${id}-warning`} className="flex items-start gap-2 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
        <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        {m.shownOnce}
      </p>
    </div>
  );
}
