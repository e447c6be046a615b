import { zodResolver } from '@hookform/resolvers/zod';
import { useId } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { leaderSettingsBody, type LeaderSettings } from '@contracts/licenses.ts';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { Switch } from '@/components/ui/switch.tsx';
import { toast, toastError } from '@/components/ui/toaster.tsx';
import { ApiError } from '@/lib/api-error.ts';
import { formatDay } from '@/lib/format-date.ts';
import { useSaveLeaderSettings } from '../api/leader-queries.ts';
import { leaderMessages } from '../leader-messages.ts';

const m = leaderMessages.settings;
type Field = 'name' | 'organization' | 'weeklyReport';
const fields: readonly string[] = ['name', 'organization', 'weeklyReport'] satisfies Field[];

/** The fields a 400 names (`details: [{path, message}]`, functions/middleware/errors.ts), to show beside them. */
const fieldIssues = (error: unknown): { path: Field; message: string }[] =>
  error instanceof ApiError && error.code === 'VALIDATION_FAILED' && Array.isArray(error.details)
    ? (error.details as { path?: unknown; message?: unknown }[]).flatMap((d) =>
        typeof d.path === 'string' && fields.includes(d.path) && typeof d.message === 'string' ? [{ path: d.path as Field, message: d.message }] : [],
      )
    : [];

/**
 * The leader's settings, one form over two cards: Profile (the sign-in email, read only; the name the weekly email
 * greets; the organisation) and Notifications (the weekly team progress email). 'Save settings' sends them all; the
 * saved values (trimmed by the server) become the form's.
 */
export function LeaderSettingsForm({ saved }: { saved: LeaderSettings }) {
  const {
    register,
    control,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(leaderSettingsBody),
    defaultValues: { name: saved.name, organization: saved.organization, weeklyReport: saved.weeklyReport },
  });
  const save = useSaveLeaderSettings();
  const weeklyId = useId();

  const onSubmit = handleSubmit((values) =>
    save.mutate(values, {
      onSuccess: (settings) => {
        reset({ name: settings.name, organization: settings.organization, weeklyReport: settings.weeklyReport });
        toast.success(m.saved, { description: settings.weeklyReport ? m.weeklyOn : m.weeklyOff });
      },
      onError: (error) => {
        const issues = fieldIssues(error);
        for (const [n, issue] of issues.entries()) setError(issue.path, { message: issue.message }, { shouldFocus: n === 0 });
        if (issues.length === 0) toastError(error, m.saveFailed);
      },
    }),
  );

  return (
    <form noValidate aria-label={m.title} className="grid gap-6" onSubmit={(event) => void onSubmit(event)}>
      <Card>
        <CardHeader>
          <CardTitle className="text-base">{m.profile}</CardTitle>
          <CardDescription>{m.profileDescription}</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-5">
          <FormField label={m.email} description={m.emailHint}>
            <Input type="email" value={saved.email} readOnly className="bg-muted/40 text-muted-foreground" />
          </FormField>
          <FormField label={m.name} description={m.nameHint} error={errors.name?.message}>
            <Input autoComplete="name" maxLength={100} {...register('name')} />
          </FormField>
          <FormField label={m.organization} description={m.organizationHint} error={errors.organization?.message}>
            <Input autoComplete="organization" maxLength={120} {...register('organization')} />
          </FormField>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle className="text-base">{m.notifications}</CardTitle>
          <CardDescription>{m.notificationsDescription}</CardDescription>
        </CardHeader>
        <CardContent>
          <div className="flex items-start justify-between gap-4">
            <div className="grid min-w-0 gap-1.5">
              <Label htmlFor={weeklyId}>{m.weekly}</Label>
              <p id={`${weeklyId}-hint`} className="text-sm text-muted-foreground">
                {m.weeklyHint}
              </p>
              {errors.weeklyReport?.message && <p className="text-sm font-medium text-destructive">{errors.weeklyReport.message}</p>}
            </div>
            <Controller
              control={control}
              name="weeklyReport"
              render={({ field }) => (
                <Switch
                  id={weeklyId}
                  ref={field.ref}
                  name={field.name}
                  checked={field.value}
                  onCheckedChange={field.onChange}
                  onBlur={field.onBlur}
                  aria-describedby={`${weeklyId}-hint`}
                />
              )}
            />
          </div>
        </CardContent>
      </Card>

      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <Button type="submit" className="max-sm:w-full" loading={save.isPending}>
          {save.isPending ? m.saving : m.save}
        </Button>
        {saved.updatedAt && <p className="text-sm text-muted-foreground">{m.lastSaved(formatDay(saved.updatedAt))}</p>}
      </div>
    </form>
  );
}
