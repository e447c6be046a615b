import { Sparkles } from 'lucide-react';
import { useId } from 'react';
import { useWatch, type UseFormReturn } from 'react-hook-form';
import * as z from 'zod';
import { LANDING_PAGE_COST } from '@contracts/credits.ts';
import { businessTypes, landingSettings, type LandingSettings } from '@contracts/landing.ts';
import { Button } from '@/components/ui/button.tsx';
import { LandingSettingsFields, settingsFieldProps } from './landing-settings-fields.tsx';

/**
 * The generator form's schema: the contract's settings, with the business type allowed to start empty (the select
 * shows 'Select an industry' until one is chosen) and refused with a message if it still is.
 */
export const landingForm = landingSettings.extend({
  businessType: z.union([z.literal(''), z.enum(businessTypes)]).pipe(z.enum(businessTypes, { error: 'Choose your business type or industry.' })),
});
export type LandingFormInput = z.input<typeof landingForm>;
export type LandingForm = UseFormReturn<LandingFormInput, unknown, LandingSettings>;

export const blankSettings: LandingFormInput = { companyName: '', businessType: '', colorTheme: 'professional', missionStatement: '', problemSolved: '' };

/** What the generator knows of the AI credits; app/ fills it from the billing feature's credits query. */
export type CreditsState = { status: 'loading' } | { status: 'error' } | { status: 'ready'; remaining: number };

export const hasCreditsToGenerate = (credits: CreditsState): boolean => credits.status === 'ready' && credits.remaining >= LANDING_PAGE_COST;

/**
 * SPEC.md "Landing page generator": the five fields and 'Generate Landing Page (15 Credits)', disabled until the
 * company name and the business type are filled and at least 15 credits remain ('Generating...' while busy). The
 * line under the button says which of these is missing.
 */
export function LandingFormPanel({
  form,
  credits,
  generating,
  onGenerate,
}: {
  form: LandingForm;
  credits: CreditsState;
  generating: boolean;
  onGenerate: (settings: LandingSettings) => void;
}) {
  const hintId = useId();
  const {
    register,
    control,
    handleSubmit,
    formState: { errors },
  } = form;
  const [companyName, businessType] = useWatch({ control, name: ['companyName', 'businessType'] });
  const filled = companyName.trim() !== '' && businessType !== '';
  const canGenerate = filled && hasCreditsToGenerate(credits) && !generating;

  return (
    <form noValidate aria-label="Describe your brand" className="grid gap-6" onSubmit={handleSubmit(onGenerate)}>
      <LandingSettingsFields
        disabled={generating}
        {...settingsFieldProps(register, errors)}
      />
      <div className="grid gap-2">
        <Button type="submit" className="h-auto min-h-10 w-full whitespace-normal sm:h-11 sm:w-fit sm:px-6" disabled={!canGenerate} loading={generating} aria-describedby={hintId}>
          {!generating && <Sparkles aria-hidden="true" className="hidden sm:block" />}
          {generating ? 'Generating...' : `Generate Landing Page (${LANDING_PAGE_COST} Credits)`}
        </Button>
        <p id={hintId} className="text-sm text-muted-foreground" aria-live="polite" data-testid="generate-hint">
          {generateHint({ filled, credits, generating })}
        </p>
      </div>
    </form>
  );
}

function generateHint({ filled, credits, generating }: { filled: boolean; credits: CreditsState; generating: boolean }): string {
  if (generating) return 'Writing your landing page. This can take up to a minute.';
  if (credits.status === 'loading') return 'Checking your AI credits...';
  if (credits.status === 'error') return 'Your AI credits could not be loaded, so a page cannot be generated right now.';
  if (credits.remaining < LANDING_PAGE_COST) {
    return `You have ${credits.remaining} AI credits; a landing page costs ${LANDING_PAGE_COST}. Top up your credits to generate one.`;
  }
  if (!filled) return 'Enter your company or brand name and choose a business type to generate.';
  return `Uses ${LANDING_PAGE_COST} of your ${credits.remaining} AI credits.`;
}
