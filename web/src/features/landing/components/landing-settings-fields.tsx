import type { FieldErrors, Path, UseFormRegister, UseFormRegisterReturn } from 'react-hook-form';
import { businessTypes, colorThemes, COMPANY_NAME_MAX, LANDING_TEXT_MAX, type LandingSettings } from '@contracts/landing.ts';
import { FormField } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Textarea } from '@/components/ui/textarea.tsx';
import { cn } from '@/lib/utils.ts';

type Field = keyof LandingSettings;

// Native selects: keyboard and screen-reader friendly as they are, and a phone shows its own picker.
const selectClass = cn(
  'flex h-10 w-full min-w-0 rounded-md border border-input bg-background px-3 py-2 text-base shadow-xs sm:text-sm',
  'outline-none transition-colors focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/50',
  'disabled:cursor-not-allowed disabled:opacity-60 aria-invalid:border-destructive',
);

const settingsFields = ['companyName', 'businessType', 'colorTheme', 'missionStatement', 'problemSolved'] as const satisfies readonly Field[];

/** Each settings field's registration and message, from a form whose values include the settings' fields. */
export function settingsFieldProps<T extends Record<Field, unknown>>(register: UseFormRegister<T>, errors: FieldErrors<T>) {
  const fields = {} as Record<Field, UseFormRegisterReturn>;
  const messages: Partial<Record<Field, string>> = {};
  for (const field of settingsFields) {
    fields[field] = register(field as Path<T>);
    const message = (errors[field] as { message?: unknown } | undefined)?.message;
    if (typeof message === 'string') messages[field] = message;
  }
  return { fields, errors: messages };
}

const label = (value: string) => value.charAt(0).toUpperCase() + value.slice(1);

/**
 * SPEC.md's generator fields with its labels: Company/Brand Name, Business Type/Industry (8 options), Color Theme
 * (6), Mission Statement and Problem You Solve (3 rows each). Shared by the generator form and the editor, each
 * with its own form: they hand in each field's registration and message.
 */
export function LandingSettingsFields({
  fields,
  errors,
  disabled,
  className,
}: {
  fields: Record<Field, UseFormRegisterReturn>;
  errors: Partial<Record<Field, string | undefined>>;
  disabled?: boolean;
  className?: string;
}) {
  return (
    <fieldset disabled={disabled} className={cn('grid min-w-0 gap-4 sm:grid-cols-2', className)}>
      <FormField label="Company/Brand Name" required error={errors.companyName}>
        <Input autoComplete="organization" required maxLength={COMPANY_NAME_MAX} placeholder="e.g. Acme Academy" {...fields.companyName} />
      </FormField>
      <FormField label="Business Type/Industry" required error={errors.businessType}>
        <select className={selectClass} required {...fields.businessType}>
          <option value="" disabled>
            Select an industry
          </option>
          {businessTypes.map((type) => (
            <option key={type} value={type}>
              {label(type)}
            </option>
          ))}
        </select>
      </FormField>
      <FormField label="Color Theme" error={errors.colorTheme} className="sm:col-span-2">
        <select className={selectClass} {...fields.colorTheme}>
          {colorThemes.map((theme) => (
            <option key={theme} value={theme}>
              {label(theme)}
            </option>
          ))}
        </select>
      </FormField>
      <FormField label="Mission Statement" error={errors.missionStatement} className="sm:col-span-2">
        <Textarea rows={3} maxLength={LANDING_TEXT_MAX} className="min-h-0" placeholder="Why your brand exists, in a sentence or two." {...fields.missionStatement} />
      </FormField>
      <FormField label="Problem You Solve" error={errors.problemSolved} className="sm:col-span-2">
        <Textarea rows={3} maxLength={LANDING_TEXT_MAX} className="min-h-0" placeholder="What your customers struggle with, and how you help." {...fields.problemSolved} />
      </FormField>
    </fieldset>
  );
}
