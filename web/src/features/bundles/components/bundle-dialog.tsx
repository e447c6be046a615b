import { useQuery } from '@tanstack/react-query';
import { Search } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { Controller, useForm, useWatch, type Resolver } from 'react-hook-form';
import { BUNDLE_COURSES_MAX, BUNDLE_COURSES_MIN, bundlePricing, createBundleBody, type Bundle, type CreateBundleBody } from '@contracts/bundles.ts';
import type { CourseSummary } from '@contracts/courses.ts';
import { CourseCheckboxes, CourseCheckboxesFailed, CourseCheckboxesLoading } from '@/components/course-checkboxes.tsx';
import { Button } from '@/components/ui/button.tsx';
import { DialogFooter } from '@/components/ui/dialog.tsx';
import { FormDialog } from '@/components/ui/form-dialog.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import { RefusalAlert } from '@/components/ui/refusal-alert.tsx';
import { Textarea } from '@/components/ui/textarea.tsx';
import { toast } from '@/components/ui/toaster.tsx';
import { ApiError } from '@/lib/api-error.ts';
import { courseChoicesQueryOptions } from '@/lib/course-choices.ts';
import { errorMessage } from '@/lib/error-message.ts';
import { formatPounds, parsePounds, poundsInput } from '@/lib/format-money.ts';
import { useCreateBundle, useUpdateBundle } from '../api/bundles-queries.ts';
import { courseCount, savingOf } from '../bundle-format.ts';
import { bundlesMessages as m } from '../bundles-messages.ts';
import { contractResolution } from '@/lib/contract-resolver.ts';

/** What the form holds: the fields as typed (the price in pounds); the resolver turns them into the contract's body. */
export interface BundleForm {
  title: string;
  description: string;
  courseIds: string[];
  price: string;
}

export const COURSES_RANGE = `Choose ${BUNDLE_COURSES_MIN} to ${BUNDLE_COURSES_MAX} courses.`;
export const PRICE_INVALID = 'Enter the price in pounds, at least £1, such as 49 or 49.99.';

const formOf = (bundle: Bundle | undefined): BundleForm =>
  bundle
    ? { title: bundle.title, description: bundle.description, courseIds: bundle.courses.map((c) => c.id), price: poundsInput(bundle.priceAmount) }
    : { title: '', description: '', courseIds: [], price: '' };

/**
 * The form's fields to `createBundleBody`, validated by the contract itself: the price that is not pounds and the
 * course count are said first in the words of their fields; then every issue the contract finds lands on its field.
 */
export const bundleResolver: Resolver<BundleForm, unknown, CreateBundleBody> = (values) => {
  const problems: Partial<Record<keyof BundleForm, string>> = {};
  const priceAmount = parsePounds(values.price);
  if (priceAmount === undefined || priceAmount < 100) problems.price = PRICE_INVALID;
  if (values.courseIds.length < BUNDLE_COURSES_MIN || values.courseIds.length > BUNDLE_COURSES_MAX) problems.courseIds = COURSES_RANGE;
  const parsed = createBundleBody.safeParse({
    title: values.title,
    description: values.description,
    courseIds: values.courseIds,
    priceAmount: priceAmount ?? 0,
  });
  return contractResolution(parsed, problems, (issue) => {
    const name = String(issue.path[0]);
    const field: keyof BundleForm = name === 'priceAmount' ? 'price' : name === 'description' || name === 'courseIds' ? name : 'title';
    return [field, field === 'title' && values.title.trim() === '' ? 'Give the bundle a title.' : issue.message];
  });
};

/**
 * 'Create bundle' or 'Edit' a bundle: a title, an optional description, 2 to 50 of the creator's published courses
 * (a searchable checklist) and the price, with what the bundle saves over the separate prices shown as they choose.
 * Checked with the contract before sending; the server's refusals stay in the dialog (courses that are not the
 * creator's published ones on the course list, anything else above the buttons).
 */
export function BundleDialog({ open, bundle, onOpenChange }: { open: boolean; bundle?: Bundle | undefined; onOpenChange: (open: boolean) => void }) {
  const create = useCreateBundle();
  const update = useUpdateBundle();
  const busy = create.isPending || update.isPending;
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      busy={busy}
      title={bundle ? m.form.editTitle : m.form.createTitle}
      description={m.form.description}
      className="sm:max-w-xl"
    >
      {(cancel) => (
        <BundleFormBody
          bundle={bundle}
          busy={busy}
          onCancel={cancel}
          save={(body, handlers) => (bundle ? update.mutate({ id: bundle.id, body }, handlers) : create.mutate(body, handlers))}
          onSaved={() => onOpenChange(false)}
        />
      )}
    </FormDialog>
  );
}

type Save = (body: CreateBundleBody, handlers: { onSuccess: (saved: Bundle) => void; onError: (error: Error) => void }) => void;

function BundleFormBody({ bundle, busy, save, onCancel, onSaved }: { bundle: Bundle | undefined; busy: boolean; save: Save; onCancel: () => void; onSaved: () => void }) {
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<BundleForm, unknown, CreateBundleBody>({ resolver: bundleResolver, defaultValues: formOf(bundle) });
  const [chosen, priceText] = useWatch({ control, name: ['courseIds', 'price'] });
  const [refusal, setRefusal] = useState<string>();
  const courses = useQuery(courseChoicesQueryOptions());
  const ids = useId();

  // Every course the checklist offers, with its price now: the creator's published courses, and those the bundle
  // holds already that are not (unpublished since: shown so they can be taken out).
  const choices = useMemo(() => {
    const published = (courses.data?.items ?? []).filter((c) => c.status === 'published');
    const listed = new Set(published.map((c) => c.id));
    const gone = (bundle?.courses ?? []).filter((c) => !listed.has(c.id)).map((c) => ({ id: c.id, title: c.title, priceAmount: c.priceAmount, unpublished: true }));
    return [...published.map((c: CourseSummary) => ({ id: c.id, title: c.title, priceAmount: c.priceAmount, unpublished: false })), ...gone];
  }, [courses.data, bundle]);

  const submit = handleSubmit((body) => {
    setRefusal(undefined);
    save(body, {
      onSuccess: (saved) => {
        toast.success(bundle ? m.form.saved : m.form.created, {
          description: `${saved.title}: ${courseCount(saved.courses.length)} for ${formatPounds(saved.priceAmount)}.`,
        });
        onSaved();
      },
      onError: (error) => {
        if (error instanceof ApiError && error.code === 'VALIDATION_FAILED' && /course/i.test(error.message)) {
          setError('courseIds', { type: 'server', message: error.message }, { shouldFocus: true });
        } else {
          setRefusal(errorMessage(error, m.form.failed));
        }
      },
    });
  });

  const prices = new Map(choices.map((c) => [c.id, c.priceAmount]));
  const priceAmount = parsePounds(priceText);
  const pricing = bundlePricing(priceAmount ?? 0, chosen.map((id) => prices.get(id) ?? 0));

  return (
    <form noValidate aria-label={bundle ? m.form.editTitle : m.form.createTitle} className="grid gap-5" onSubmit={(event) => void submit(event)}>
      <FormField label="Title" error={errors.title?.message} required>
        <Input {...register('title')} required maxLength={200} autoComplete="off" placeholder="The complete painting kit" />
      </FormField>
      <FormField label="Description" error={errors.description?.message} description="Shown on the bundle's page. Optional.">
        <Textarea {...register('description')} rows={3} maxLength={5000} />
      </FormField>

      <fieldset className="grid gap-3" aria-describedby={errors.courseIds ? `${ids}-courses-error` : `${ids}-courses-count`}>
        <legend className="mb-2 text-sm font-medium">
          Courses
          <span aria-hidden="true" className="ml-0.5 text-destructive">
            *
          </span>
        </legend>
        {courses.isPending ? (
          <CourseCheckboxesLoading />
        ) : courses.isError ? (
          <CourseCheckboxesFailed retrying={courses.isFetching} onRetry={() => void courses.refetch()} retryLabel={m.retry} />
        ) : choices.length < BUNDLE_COURSES_MIN ? (
          <p className="rounded-lg border border-dashed p-3 text-sm text-muted-foreground">{m.form.noCourses}</p>
        ) : (
          <Controller
            control={control}
            name="courseIds"
            render={({ field }) => <CourseChecklist choices={choices} chosen={field.value} onChange={field.onChange} focusRef={field.ref} />}
          />
        )}
        <p id={`${ids}-courses-count`} className="text-sm text-muted-foreground">
          {chosen.length} of {BUNDLE_COURSES_MIN} to {BUNDLE_COURSES_MAX} chosen
        </p>
        {errors.courseIds && (
          <p id={`${ids}-courses-error`} className="text-sm font-medium text-destructive">
            {errors.courseIds.message}
          </p>
        )}
      </fieldset>

      <FormField label="Bundle price (£)" error={errors.price?.message} required>
        <Input {...register('price')} required inputMode="decimal" autoComplete="off" placeholder="49.00" className="max-w-40" />
      </FormField>

      <div aria-live="polite" data-testid="bundle-saving" className="grid gap-1 rounded-lg bg-muted/60 p-3 text-sm">
        <p>
          <span className="text-muted-foreground">Separately: </span>
          <span className="font-medium tabular-nums">{formatPounds(pricing.separateAmount)}</span>
          {priceAmount !== undefined && priceAmount > 0 && (
            <>
              <span className="text-muted-foreground"> · Bundle: </span>
              <span className="font-medium tabular-nums">{formatPounds(priceAmount)}</span>
            </>
          )}
        </p>
        {priceAmount !== undefined && priceAmount > 0 && chosen.length > 0 && (
          <p className={pricing.savingAmount > 0 ? 'font-semibold text-emerald-700' : 'text-muted-foreground'}>
            {savingOf(pricing) ? `Buyers save ${savingOf(pricing)}` : 'No saving over the separate prices'}
          </p>
        )}
      </div>

      {refusal && <RefusalAlert>{refusal}</RefusalAlert>}

      <DialogFooter>
        <Button variant="outline" disabled={busy} onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" loading={busy}>
          {bundle ? m.form.save : m.form.create}
        </Button>
      </DialogFooter>
    </form>
  );
}

interface Choice {
  id: string;
  title: string;
  priceAmount: number;
  unpublished: boolean;
}

/** The courses as checkboxes, each with its price, under a search field that narrows them by title (the chosen stay chosen). */
function CourseChecklist({
  choices,
  chosen,
  onChange,
  focusRef,
}: {
  choices: Choice[];
  chosen: string[];
  onChange: (ids: string[]) => void;
  focusRef: (element: HTMLInputElement | null) => void;
}) {
  const [search, setSearch] = useState('');
  const words = search.trim().toLowerCase();
  const shown = words === '' ? choices : choices.filter((c) => c.title.toLowerCase().includes(words));
  return (
    <div className="grid gap-2">
      <div className="relative">
        <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground" />
        <Input type="search" aria-label={m.form.search} placeholder={m.form.search} value={search} onChange={(event) => setSearch(event.target.value)} className="pl-8" />
      </div>
      {shown.length === 0 ? (
        <p className="rounded-lg border border-dashed p-3 text-sm text-muted-foreground">{m.form.noMatch}</p>
      ) : (
        <CourseCheckboxes
          courses={shown.map((course) => ({
            id: course.id,
            title: course.title,
            detail: course.priceAmount === 0 ? 'Free on its own' : formatPounds(course.priceAmount),
            badge: course.unpublished ? 'Unpublished' : undefined,
          }))}
          chosen={chosen}
          onChange={onChange}
          focusRef={focusRef}
        />
      )}
    </div>
  );
}
