import { useId, type ReactNode } from 'react';
import { Label } from '@/components/ui/label.tsx';
import { Select, SelectContent, SelectTrigger, SelectValue } from '@/components/ui/select.tsx';

/**
 * A labelled Select with its error. FormField hands its id to its one child, and a Select's child would be the Root
 * (which renders nothing), so the label is tied to the trigger here.
 */
export function SelectField(props: { label: string; value: string; error: string | undefined; onValueChange: (value: string) => void; children: ReactNode }) {
  const id = useId();
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{props.label}</Label>
      <Select value={props.value} onValueChange={props.onValueChange}>
        <SelectTrigger id={id} aria-invalid={props.error ? true : undefined} aria-describedby={props.error ? `${id}-error` : undefined}>
          <SelectValue />
        </SelectTrigger>
        <SelectContent>{props.children}</SelectContent>
      </Select>
      {props.error && (
        <p id={`${id}-error`} className="text-sm font-medium text-destructive">
          {props.error}
        </p>
      )}
    </div>
  );
}
