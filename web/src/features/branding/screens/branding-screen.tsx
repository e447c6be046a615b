import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { ImageUp, Palette, RotateCw, Trash2 } from 'lucide-react';
import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import type * as z from 'zod';
import {
  brandingBody,
  contrastRatio,
  DEFAULT_PRIMARY_COLOR,
  LOGO_CONTENT_TYPES,
  LOGO_MAX_BYTES,
  LOGO_SIZE_MESSAGE,
  LOGO_TYPE_MESSAGE,
  onPrimaryColor,
  SCHOOL_NAME_MAX,
  type BrandingView,
} from '@contracts/branding.ts';
import { PlanRequiredCard } from '@/components/plan-gate.tsx';
import { SchoolMark } from '@/components/school-mark.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { toast, toastError } from '@/components/ui/toaster.tsx';
import { ApiError } from '@/lib/api-error.ts';
import { useEntitlements } from '@/lib/entitlements.ts';
import { errorMessage } from '@/lib/error-message.ts';
import { brandingQueryOptions, uploadLogo, useSaveBranding } from '../api/branding-queries.ts';

export const BRANDING_SAVED = 'Branding saved';
export const BRANDING_SAVE_FAILED = 'Your branding could not be saved';
export const BRANDING_PLAN_REASON = 'Your school name, colour and logo on your course pages, your learners’ player and their emails are part of the Pro plan.';

const formSchema = brandingBody.pick({ schoolName: true, primaryColor: true });
type FormValues = z.input<typeof formSchema>;

/** The logo being edited: the saved one, one uploading or uploaded (not saved yet), or removed. */
type Logo = { state: 'saved' } | { state: 'uploading'; preview: string } | { state: 'new'; preview: string; id: string } | { state: 'removed' };

const logoProblem = (file: File): string | undefined =>
  !(LOGO_CONTENT_TYPES as readonly string[]).includes(file.type) ? LOGO_TYPE_MESSAGE : file.size > LOGO_MAX_BYTES ? LOGO_SIZE_MESSAGE : file.size === 0 ? 'The file is empty.' : undefined;

const isHex = (value: string) => /^#[0-9a-fA-F]{6}$/.test(value);

/**
 * The Branding page (issue 32 point 1): the school's name, primary colour and logo, with a live preview of the header
 * and a button as the creator's visitors and learners will see them (the text colour on the primary colour is chosen
 * for 4.5:1 contrast, and the ratio shown). Pro: on another plan the page says so and the form is read-only.
 */
export function BrandingScreen() {
  const branding = useQuery(brandingQueryOptions());
  const locked = useEntitlements().locked('branding');
  return (
    <div className="grid gap-6">
      <PageHeader title="Branding" description="Your school's name, colour and logo, on your course pages, your learners' player and the emails they get." />
      {locked && <PlanRequiredCard title="Custom branding is a Pro feature" reason={BRANDING_PLAN_REASON} />}
      {branding.isPending ? (
        <Card aria-busy="true">
          <CardContent className="grid gap-4 pt-6">
            <span className="sr-only">Loading your branding...</span>
            <Skeleton className="h-10 w-full" />
            <Skeleton className="h-10 w-40" />
            <Skeleton className="h-24 w-full" />
          </CardContent>
        </Card>
      ) : branding.isError ? (
        <Card>
          <CardContent role="alert" className="grid gap-3 pt-6 text-sm">
            <p>Your branding could not be loaded. Check your connection and try again.</p>
            <Button variant="outline" className="w-fit" loading={branding.isFetching} onClick={() => void branding.refetch()}>
              {!branding.isFetching && <RotateCw aria-hidden="true" />}
              Try again
            </Button>
          </CardContent>
        </Card>
      ) : (
        <fieldset disabled={locked} aria-label={locked ? 'Branding (read-only)' : undefined} className="min-w-0">
          <BrandingForm saved={branding.data} />
        </fieldset>
      )}
    </div>
  );
}

function BrandingForm({ saved }: { saved: BrandingView | null }) {
  const {
    register,
    control,
    handleSubmit,
    setValue,
    setError,
    formState: { errors },
  } = useForm<FormValues>({
    resolver: zodResolver(formSchema),
    defaultValues: { schoolName: saved?.schoolName ?? '', primaryColor: saved?.primaryColor ?? DEFAULT_PRIMARY_COLOR },
  });
  const schoolName = useWatch({ control, name: 'schoolName' });
  const colour = useWatch({ control, name: 'primaryColor' });
  const save = useSaveBranding();
  const [logo, setLogo] = useState<Logo>({ state: 'saved' });
  const [logoError, setLogoError] = useState<string>();
  const fileInput = useRef<HTMLInputElement>(null);
  const upload = useRef<AbortController | null>(null);

  const preview = logo.state === 'uploading' || logo.state === 'new' ? logo.preview : undefined;
  useEffect(() => (preview ? () => URL.revokeObjectURL(preview) : undefined), [preview]);
  useEffect(() => () => upload.current?.abort(), []);

  const shownLogo = logo.state === 'saved' ? (saved?.logoUrl ?? null) : logo.state === 'removed' ? null : logo.preview;
  const primary = isHex(colour) ? colour.toLowerCase() : (saved?.primaryColor ?? DEFAULT_PRIMARY_COLOR);
  const onPrimary = onPrimaryColor(primary);
  const ratio = contrastRatio(primary, onPrimary);

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const problem = logoProblem(file);
    setLogoError(problem);
    if (problem) return;
    upload.current?.abort();
    const controller = new AbortController();
    upload.current = controller;
    const local = URL.createObjectURL(file);
    setLogo({ state: 'uploading', preview: local });
    try {
      const id = await uploadLogo(file, controller.signal);
      if (!controller.signal.aborted) setLogo({ state: 'new', preview: local, id });
    } catch (error) {
      if (controller.signal.aborted) return;
      setLogo({ state: 'saved' });
      setLogoError(errorMessage(error, 'The logo could not be uploaded. Try again.'));
    }
  };

  const onSubmit = (values: FormValues) => {
    const logoFileId = logo.state === 'new' ? logo.id : logo.state === 'removed' ? null : undefined;
    save.mutate(
      { schoolName: values.schoolName, primaryColor: values.primaryColor, ...(logoFileId !== undefined ? { logoFileId } : {}) },
      {
        onSuccess: () => {
          setLogo({ state: 'saved' });
          toast.success(BRANDING_SAVED, { description: 'Your course pages, player and emails show it from now on.' });
        },
        onError: (error) => {
          const details = error instanceof ApiError && Array.isArray(error.details) ? (error.details as { path?: string; message?: string }[]) : [];
          const field = details.find((d) => d.path === 'schoolName' || d.path === 'primaryColor');
          if (field) {
            setError(field.path as keyof FormValues, { message: field.message ?? error.message }, { shouldFocus: true });
            return;
          }
          if (details.some((d) => d.path === 'logoFileId')) {
            setLogo({ state: 'saved' });
            setLogoError(error.message);
            return;
          }
          toastError(error, BRANDING_SAVE_FAILED);
        },
      },
    );
  };

  const uploading = logo.state === 'uploading';
  const hasLogo = shownLogo !== null;

  return (
    <form noValidate aria-label="Branding" className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,26rem)] lg:items-start" onSubmit={(e) => void handleSubmit(onSubmit)(e)}>
      <Card className="min-w-0">
        <CardHeader className="px-4 sm:px-6">
          <CardTitle className="flex items-center gap-2">
            <Palette aria-hidden="true" className="size-5 text-muted-foreground" />
            Your school
          </CardTitle>
          <CardDescription>Learners and visitors see your school, not the platform's name.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-5 px-4 sm:px-6">
          <FormField label="School name" required error={errors.schoolName?.message} description={`${(schoolName ?? '').length}/${SCHOOL_NAME_MAX} characters. The sender name of your learners' emails.`}>
            <Input autoComplete="organization" maxLength={SCHOOL_NAME_MAX + 10} {...register('schoolName')} />
          </FormField>

          <FormField
            label="Primary colour"
            required
            error={errors.primaryColor?.message}
            description="Buttons and your page's header. A hex colour like #1d4ed8."
            adornment={
              <input
                type="color"
                aria-label="Pick the primary colour"
                value={primary}
                onChange={(e) => setValue('primaryColor', e.target.value, { shouldDirty: true, shouldValidate: true })}
                className="h-10 w-12 shrink-0 cursor-pointer rounded-md border bg-background p-1"
              />
            }
          >
            <Input className="w-36 font-mono" spellCheck={false} autoCapitalize="none" maxLength={7} {...register('primaryColor')} />
          </FormField>

          <div className="grid gap-2">
            <p className="text-sm font-medium" id="logo-label">
              Logo
            </p>
            <div className="flex flex-wrap items-center gap-3">
              <span className="grid h-14 w-28 place-items-center overflow-hidden rounded-md border bg-subtle">
                {shownLogo ? <img src={shownLogo} alt="Your logo" className="max-h-12 max-w-24 object-contain" /> : <span className="text-xs text-muted-foreground">No logo</span>}
              </span>
              <Button variant="outline" size="sm" loading={uploading} onClick={() => fileInput.current?.click()} aria-describedby="logo-help">
                {!uploading && <ImageUp aria-hidden="true" />}
                {uploading ? 'Uploading...' : hasLogo ? 'Change logo' : 'Upload logo'}
              </Button>
              {hasLogo && !uploading && (
                <Button
                  variant="ghost"
                  size="sm"
                  onClick={() => {
                    setLogoError(undefined);
                    setLogo(saved?.logoUrl ? { state: 'removed' } : { state: 'saved' });
                  }}
                >
                  <Trash2 aria-hidden="true" />
                  Remove logo
                </Button>
              )}
            </div>
            <p id="logo-help" className="text-xs text-muted-foreground">
              PNG, JPEG or WebP, up to 2 MB; a wide logo on a transparent background looks best. Without one, your initials show.
              {logo.state === 'new' && ' Save to use the new logo.'}
              {logo.state === 'removed' && ' Save to remove your logo.'}
            </p>
            {logoError && (
              <p role="alert" className="text-sm font-medium text-destructive">
                {logoError}
              </p>
            )}
            <input
              ref={fileInput}
              type="file"
              accept={LOGO_CONTENT_TYPES.join(',')}
              className="sr-only"
              tabIndex={-1}
              aria-labelledby="logo-label"
              data-testid="logo-input"
              onChange={(e) => void choose(e)}
            />
          </div>

          <Button type="submit" className="w-fit" loading={save.isPending} disabled={uploading}>
            Save branding
          </Button>
        </CardContent>
      </Card>

      <BrandingPreview name={schoolName?.trim() || 'Your school'} logoUrl={shownLogo} primary={primary} onPrimary={onPrimary} ratio={ratio} />
    </form>
  );
}

/** What visitors will see: the branded header, a heading and a button in the school's colours; the text contrast. */
function BrandingPreview({ name, logoUrl, primary, onPrimary, ratio }: { name: string; logoUrl: string | null; primary: string; onPrimary: string; ratio: number }) {
  return (
    <Card role="region" aria-labelledby="branding-preview-title" className="min-w-0 overflow-hidden">
      <CardHeader className="px-4 sm:px-6">
        <CardTitle id="branding-preview-title">Preview</CardTitle>
        <CardDescription>As your course pages show it.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4 px-4 sm:px-6">
        <div className="overflow-hidden rounded-lg border">
          <div className="flex h-14 items-center border-b bg-background px-4">
            <SchoolMark name={name} logoUrl={logoUrl} primaryColor={primary} onPrimaryColor={onPrimary} />
          </div>
          <div className="grid gap-3 bg-subtle p-4">
            <p className="text-lg font-semibold tracking-tight">Your course title</p>
            <p className="text-sm text-muted-foreground">A short description of what learners get.</p>
            <span data-testid="preview-button" className="inline-flex h-10 w-fit items-center rounded-md px-4 text-sm font-medium" style={{ backgroundColor: primary, color: onPrimary }}>
              Enrol now
            </span>
          </div>
        </div>
        <p className="text-sm text-muted-foreground" data-testid="contrast-note">
          Text on your colour is {onPrimary === '#ffffff' ? 'white' : 'black'}: contrast {ratio.toFixed(1)}:1 (at least 4.5:1 for readable text).
        </p>
      </CardContent>
    </Card>
  );
}
