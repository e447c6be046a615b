import { useQuery } from '@tanstack/react-query';
import { RotateCw } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { Controller, useForm, useWatch, type Resolver } from 'react-hook-form';
import { MEMBERSHIP_PRICE_MIN, createMembershipBody, type CreateMembershipBody, type Membership, type MembershipInterval } from '@contracts/memberships.ts';
import { Button } from '@/components/ui/button.tsx';
import { DialogFooter } from '@/components/ui/dialog.tsx';
import { FormDialog } from '@/components/ui/form-dialog.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import { RefusalAlert } from '@/components/ui/refusal-alert.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { Textarea } from '@/components/ui/textarea.tsx';
import { toast } from '@/components/ui/toaster.tsx';
import { ApiError } from '@/lib/api-error.ts';
import { courseChoicesQueryOptions } from '@/lib/course-choices.ts';
import { errorMessage } from '@/lib/error-message.ts';
import { parsePounds, poundsInput } from '@/lib/format-money.ts';
import { useCreateMembership, useUpdateMembership } from '../api/memberships-queries.ts';
import { coursesLabel, priceLabel } from '../membership-format.ts';
import { membershipsMessages as m } from '../memberships-messages.ts';
import { contractResolution } from '@/lib/contract-resolver.ts';

/** What the form holds: the fields as typed (the price in pounds); the resolver turns them into the contract's body. */
export interface MembershipForm {
  title: string;
  description: string;
  interval: MembershipInterval;
  price: string;
  allCourses: boolean;
  courseIds: string[];
}

export const PRICE_INVALID = 'Enter the price in pounds, at least £1, such as 12 or 9.99.';
export const COURSES_REQUIRED = 'Choose at least one course, or All my courses.';

const formOf = (membership: Membership | undefined): MembershipForm =>
  membership
    ? {
        title: membership.title,
        description: membership.description,
        interval: membership.interval,
        price: poundsInput(membership.priceAmount),
        allCourses: membership.courseIds === 'all',
        courseIds: membership.courseIds === 'all' ? [] : membership.courseIds,
      }
    : { title: '', description: '', interval: 'month', price: '', allCourses: false, courseIds: [] };

/** The form's fields to `createMembershipBody`, validated by the contract itself, each issue on its field. */
export const membershipResolver: Resolver<MembershipForm, unknown, CreateMembershipBody> = (values) => {
  const problems: Partial<Record<keyof MembershipForm, string>> = {};
  const priceAmount = parsePounds(values.price);
  if (priceAmount === undefined || priceAmount < MEMBERSHIP_PRICE_MIN) problems.price = PRICE_INVALID;
  if (!values.allCourses && values.courseIds.length === 0) problems.courseIds = COURSES_REQUIRED;
  const parsed = createMembershipBody.safeParse({
    title: values.title,
    description: values.description,
    interval: values.interval,
    priceAmount: priceAmount ?? 0,
    courseIds: values.allCourses ? 'all' : values.courseIds,
  });
  return contractResolution(parsed, problems, (issue) => {
    const name = String(issue.path[0]);
    const field: keyof MembershipForm = name === 'priceAmount' ? 'price' : name === 'description' || name === 'courseIds' || name === 'interval' ? name : 'title';
    return [field, field === 'title' && values.title.trim() === '' ? 'Give the membership a title.' : issue.message];
  });
};

/**
 * 'Create membership' or 'Edit' one: a title, an optional description, month or year, the price, and the courses it
 * gives (All my courses, or a checklist of the creator's published courses). Editing keeps the price and interval:
 * members subscribed at them (a new price is a new membership), so those fields are shown but fixed.
 */
export function MembershipDialog({ open, membership, onOpenChange }: { open: boolean; membership?: Membership | undefined; onOpenChange: (open: boolean) => void }) {
  const create = useCreateMembership();
  const update = useUpdateMembership();
  const busy = create.isPending || update.isPending;
  return (
    <FormDialog open={open} onOpenChange={onOpenChange} busy={busy} title={membership ? m.form.editTitle : m.form.createTitle} description={m.form.description} className="sm:max-w-xl">
      {(cancel) => (
        <MembershipFormBody
          membership={membership}
          busy={busy}
          onCancel={cancel}
          save={(body, handlers) =>
            membership
              ? update.mutate({ id: membership.id, body: { title: body.title, description: body.description ?? '', courseIds: body.courseIds } }, handlers)
              : create.mutate(body, handlers)
          }
          onSaved={() => onOpenChange(false)}
        />
      )}
    </FormDialog>
  );
}

type Save = (body: CreateMembershipBody, handlers: { onSuccess: (saved: Membership) => void; onError: (error: Error) => void }) => void;

function MembershipFormBody({ membership, busy, save, onCancel, onSaved }: { membership: Membership | undefined; busy: boolean; save: Save; onCancel: () => void; onSaved: () => void }) {
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<MembershipForm, unknown, CreateMembershipBody>({ resolver: membershipResolver, defaultValues: formOf(membership) });
  const allCourses = useWatch({ control, name: 'allCourses' });
  const [refusal, setRefusal] = useState<string>();
  const courses = useQuery(courseChoicesQueryOptions());
  const ids = useId();
  const editing = membership !== undefined;

  const choices = useMemo(() => (courses.data?.items ?? []).filter((c) => c.status === 'published').map((c) => ({ id: c.id, title: c.title })), [courses.data]);

  const submit = handleSubmit((body) => {
    setRefusal(undefined);
    save(body, {
      onSuccess: (saved) => {
        toast.success(editing ? m.form.saved : m.form.created, { description: `${saved.title}: ${coursesLabel(saved.courseIds)} for ${priceLabel(saved.priceAmount, saved.interval)}.` });
        onSaved();
      },
      onError: (error) => {
        if (error instanceof ApiError && error.code === 'VALIDATION_FAILED' && /course/i.test(error.message)) {
          setError('courseIds', { type: 'server', message: error.message });
        } else {
          setRefusal(errorMessage(error, m.form.failed));
        }
      },
    });
  });

  return (
    <form noValidate aria-label={editing ? m.form.editTitle : m.form.createTitle} className="grid gap-5" onSubmit={(event) => void submit(event)}>
      <FormField label="Title" error={errors.title?.message} required>
        <Input {...register('title')} required maxLength={200} autoComplete="off" placeholder="The painting club" />
      </FormField>
      <FormField label="Description" error={errors.description?.message} description="Shown on the membership's page. Optional.">
        <Textarea {...register('description')} rows={3} maxLength={5000} />
      </FormField>

      <div className="grid gap-4 sm:grid-cols-2">
        <fieldset className="grid gap-2" disabled={editing}>
          <legend className="mb-2 text-sm font-medium">Charged every</legend>
          <div className="flex gap-4 text-sm">
            <label className="flex items-center gap-2">
              <input type="radio" value="month" className="size-4 accent-primary" {...register('interval')} />
              Month
            </label>
            <label className="flex items-center gap-2">
              <input type="radio" value="year" className="size-4 accent-primary" {...register('interval')} />
              Year
            </label>
          </div>
        </fieldset>
        <FormField label="Price (£)" error={errors.price?.message} required>
          <Input {...register('price')} required disabled={editing} inputMode="decimal" autoComplete="off" placeholder="12.00" className="max-w-40" />
        </FormField>
      </div>
      {editing && <p className="-mt-2 text-xs text-muted-foreground">{m.form.fixedPrice}</p>}

      <fieldset className="grid gap-3" aria-describedby={errors.courseIds ? `${ids}-courses-error` : undefined}>
        <legend className="mb-2 text-sm font-medium">
          Courses
          <span aria-hidden="true" className="ml-0.5 text-destructive">
            *
          </span>
        </legend>
        <Controller
          control={control}
          name="allCourses"
          render={({ field }) => (
            <div className="grid gap-2 text-sm">
              <label className="flex items-start gap-2">
                <input type="radio" name={`${ids}-scope`} className="mt-0.5 size-4 accent-primary" checked={field.value} onChange={() => field.onChange(true)} />
                <span className="grid gap-0.5">
                  <span className="font-medium">{m.form.allCourses}</span>
                  <span className="text-xs text-muted-foreground">{m.form.allCoursesHint}</span>
                </span>
              </label>
              <label className="flex items-center gap-2">
                <input type="radio" name={`${ids}-scope`} className="size-4 accent-primary" checked={!field.value} onChange={() => field.onChange(false)} />
                <span className="font-medium">{m.form.chosenCourses}</span>
              </label>
            </div>
          )}
        />
        {!allCourses &&
          (courses.isPending ? (
            <div role="status" className="grid gap-2 rounded-lg border p-3">
              <span className="sr-only">Loading your courses...</span>
              <Skeleton className="h-6 w-3/4" />
              <Skeleton className="h-6 w-2/3" />
            </div>
          ) : courses.isError ? (
            <div role="alert" className="flex flex-wrap items-center gap-3 rounded-lg border p-3 text-sm">
              <p className="flex-1">Your courses could not be loaded.</p>
              <Button variant="outline" size="sm" loading={courses.isFetching} onClick={() => void courses.refetch()}>
                {!courses.isFetching && <RotateCw aria-hidden="true" />}
                {m.retry}
              </Button>
            </div>
          ) : choices.length === 0 ? (
            <p className="rounded-lg border border-dashed p-3 text-sm text-muted-foreground">{m.form.noCourses}</p>
          ) : (
            <Controller
              control={control}
              name="courseIds"
              render={({ field }) => (
                <ul className="grid max-h-60 gap-1 overflow-y-auto rounded-lg border p-1.5">
                  {choices.map((course) => (
                    <li key={course.id}>
                      <label className="flex cursor-pointer items-start gap-3 rounded-md px-2 py-2 text-sm hover:bg-muted/60 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring">
                        <input
                          type="checkbox"
                          className="mt-0.5 size-4 shrink-0 accent-primary"
                          checked={field.value.includes(course.id)}
                          onChange={(event) => field.onChange(event.target.checked ? [...field.value, course.id] : field.value.filter((id) => id !== course.id))}
                        />
                        <span className="font-medium [overflow-wrap:anywhere]">{course.title}</span>
                      </label>
                    </li>
                  ))}
                </ul>
              )}
            />
          ))}
        {errors.courseIds && (
          <p id={`${ids}-courses-error`} className="text-sm font-medium text-destructive">
            {errors.courseIds.message}
          </p>
        )}
      </fieldset>

      {refusal && <RefusalAlert>{refusal}</RefusalAlert>}

      <DialogFooter>
        <Button variant="outline" disabled={busy} onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" loading={busy}>
          {editing ? m.form.save : m.form.create}
        </Button>
      </DialogFooter>
    </form>
  );
}
