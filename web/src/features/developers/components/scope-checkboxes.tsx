import { useId } from 'react';
import { cn } from '@/lib/utils.ts';

/** A fieldset of checkboxes, one per value with its label in words and its value as code; the error under it. */
export function CheckboxGroup<T extends string>({
  legend,
  options,
  labels,
  chosen,
  onChange,
  error,
}: {
  legend: string;
  options: readonly T[];
  labels: Record<T, string>;
  chosen: readonly T[];
  onChange: (chosen: T[]) => void;
  error: string | undefined;
}) {
  const id = useId();
  const toggle = (value: T, on: boolean) => onChange(on ? options.filter((o) => o === value || chosen.includes(o)) : chosen.filter((c) => c !== value));
  return (
    <fieldset className="grid gap-2" aria-describedby={error ? `${id}-error` : undefined} aria-invalid={error ? true : undefined}>
      <legend className="mb-2 text-sm font-medium">
        {legend}
        <span aria-hidden="true" className="ml-0.5 text-destructive">
          *
        </span>
      </legend>
      <ul className={cn('grid gap-1 rounded-lg border p-1.5', error && 'border-destructive')}>
        {options.map((value) => (
          <li key={value}>
            <label className="flex cursor-pointer items-start gap-3 rounded-md px-2 py-2 text-sm hover:bg-muted/60 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring">
              <input
                type="checkbox"
                className="mt-0.5 size-4 shrink-0 accent-primary"
                checked={chosen.includes(value)}
                onChange={(event) => toggle(value, event.target.checked)}
              />
              <span className="grid min-w-0 gap-0.5">
                <span className="font-medium">{labels[value]}</span>
                <code className="text-xs text-muted-foreground">{value}</code>
              </span>
            </label>
          </li>
        ))}
      </ul>
      {error && (
        <p id={`${id}-error`} className="text-sm font-medium text-destructive">
          {error}
        </p>
      )}
    </fieldset>
  );
}
