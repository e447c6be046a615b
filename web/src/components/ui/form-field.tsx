import { Slot } from '@radix-ui/react-slot';
import { useId, type ReactElement, type ReactNode } from 'react';
import { cn } from '@/lib/utils.ts';
import { Label } from './label.tsx';

export interface FormFieldProps {
  label: string;
  /** The validation message; shown under the control and announced through aria-describedby. */
  error?: string | undefined;
  description?: string;
  /** Adds a visual marker; the control itself keeps `required` / `aria-required` for assistive technology. */
  required?: boolean;
  className?: string;
  /** Shown before the control on its line (a colour picker beside a hex field); labelled on its own. */
  adornment?: ReactNode;
  /** Exactly one control (Input, textarea, select trigger); it receives id, aria-invalid and aria-describedby. */
  children: ReactElement;
}

export function FormField({ label, error, description, required, className, adornment, children }: FormFieldProps) {
  const id = useId();
  const descriptionId = description ? `${id}-description` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [descriptionId, errorId].filter(Boolean).join(' ') || undefined;
  const control = (
    <Slot id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy}>
      {children}
    </Slot>
  );

  return (
    <div className={cn('grid gap-2', className)}>
      <Label htmlFor={id}>
        {label}
        {required && (
          <span aria-hidden="true" className="ml-0.5 text-destructive">
            *
          </span>
        )}
      </Label>
      {adornment ? (
        <div className="flex items-center gap-2">
          {adornment}
          {control}
        </div>
      ) : (
        control
      )}
      {description && (
        <p id={descriptionId} className="text-sm text-muted-foreground">
          {description}
        </p>
      )}
      {error && (
        <p id={errorId} className="text-sm font-medium text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}
