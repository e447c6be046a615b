import { useQuery } from '@tanstack/react-query';
import { CreditCard } from 'lucide-react';
import { useId, useState, type ChangeEvent, type ComponentProps } from 'react';
import { Controller, useForm, useWatch, type Resolver } from 'react-hook-form';
import { Link } from 'react-router-dom';
import { createCouponBody, discountOf, type CreateCouponBody } from '@contracts/coupons.ts';
import type { CourseSummary } from '@contracts/courses.ts';
import { CourseCheckboxes, CourseCheckboxesFailed, CourseCheckboxesLoading } from '@/components/course-checkboxes.tsx';
import { Button } from '@/components/ui/button.tsx';
import { DialogFooter } from '@/components/ui/dialog.tsx';
import { FormDialog } from '@/components/ui/form-dialog.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import { RefusalAlert } from '@/components/ui/refusal-alert.tsx';
import { toast } from '@/components/ui/toaster.tsx';
import { ApiError } from '@/lib/api-error.ts';
import { courseChoicesQueryOptions } from '@/lib/course-choices.ts';
import { errorMessage } from '@/lib/error-message.ts';
import { formatPounds, parsePounds } from '@/lib/format-money.ts';
import { paths } from '@/lib/paths.ts';
import { cn } from '@/lib/utils.ts';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select.tsx';
import { affiliatesQueryOptions, useCreateCoupon } from '../api/coupons-queries.ts';
import { endOfDay, today } from '@/lib/format-date.ts';
import { discountLabel } from '../coupon-format.ts';
import { couponsMessages as m } from '../coupons-messages.ts';
import { contractResolution } from '@/lib/contract-resolver.ts';

/** What the form holds: the fields as typed (pounds, a local day); the resolver turns them into the contract's body. */
export interface CouponForm {
  code: string;
  kind: 'percent' | 'amount';
  value: string;
  scope: 'all' | 'chosen';
  courseIds: string[];
  maxRedemptions: string;
  expiresAt: string;
  /** One of the creator's affiliates ('' = none): a sale with the code is credited to them. */
  affiliateId: string;
}

const NO_AFFILIATE = 'none';
const emptyForm: CouponForm = { code: '', kind: 'percent', value: '', scope: 'all', courseIds: [], maxRedemptions: '', expiresAt: '', affiliateId: NO_AFFILIATE };

/** The discount as typed, in the contract's unit (a whole percent, or pence), or undefined when it is not one. */
function valueOf(kind: CouponForm['kind'], text: string): number | undefined {
  if (kind === 'amount') {
    const pence = parsePounds(text);
    return pence === undefined || pence === 0 ? undefined : pence;
  }
  const match = /^\s*(\d{1,3})\s*%?\s*$/.exec(text);
  return match ? Number(match[1]) : undefined;
}

const fieldOfBody: Record<string, keyof CouponForm> = {
  code: 'code',
  kind: 'kind',
  value: 'value',
  courseIds: 'courseIds',
  maxRedemptions: 'maxRedemptions',
  expiresAt: 'expiresAt',
  affiliateId: 'affiliateId',
};

/**
 * The form's fields to `createCouponBody`, validated by the contract itself: what cannot even be converted (an amount
 * that is not pounds, a cap that is not a whole number) is said first, in the words of the field; then every issue
 * the contract finds lands on the field it names.
 */
export const couponResolver: Resolver<CouponForm, unknown, CreateCouponBody> = (values) => {
  const problems: Partial<Record<keyof CouponForm, string>> = {};
  const value = valueOf(values.kind, values.value);
  if (value === undefined) {
    problems.value = values.kind === 'percent' ? 'A percent off is a whole number from 1 to 100.' : 'Enter the amount off in pounds, such as 5 or 4.99.';
  }
  if (values.scope === 'chosen' && values.courseIds.length === 0) problems.courseIds = 'Choose at least one course.';
  const cap = values.maxRedemptions.trim().replaceAll(',', '');
  if (cap !== '' && !/^\d{1,7}$/.test(cap)) problems.maxRedemptions = 'A whole number of uses, such as 50.';
  else if (cap !== '' && (Number(cap) < 1 || Number(cap) > 1_000_000)) problems.maxRedemptions = 'From 1 to 1,000,000 uses.';
  if (values.expiresAt !== '' && values.expiresAt < today()) problems.expiresAt = 'Pick today or a later day.';

  const parsed = createCouponBody.safeParse({
    code: values.code,
    kind: values.kind,
    value: value ?? 0,
    courseIds: values.scope === 'all' ? null : values.courseIds,
    ...(cap === '' ? {} : { maxRedemptions: Number(cap) }),
    ...(values.expiresAt === '' ? {} : { expiresAt: endOfDay(values.expiresAt) }),
    ...(values.affiliateId === NO_AFFILIATE ? {} : { affiliateId: values.affiliateId }),
  });
  return contractResolution(parsed, problems, (issue) => [fieldOfBody[String(issue.path[0])] ?? 'code', issue.message]);
};

/** A refusal the form shows above its buttons: no Stripe account yet (with the way there), or the server's reason. */
type Refusal = { kind: 'payouts' } | { kind: 'other'; message: string };

/**
 * 'Create coupon': the code (upper-cased as it is typed), a percent or an amount off, all courses or chosen ones, an
 * optional cap and last day. Checked with the contract before sending; the server's refusals stay in the dialog (a
 * code in use on the code field, no Stripe account with a link to the profile's Payments section).
 */
export function CreateCouponDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const create = useCreateCoupon();
  return (
    <FormDialog open={open} onOpenChange={onOpenChange} busy={create.isPending} title={m.form.title} description={m.form.description} className="sm:max-w-xl">
      {(cancel) => <CouponFormBody create={create} onCancel={cancel} onCreated={() => onOpenChange(false)} />}
    </FormDialog>
  );
}

function CouponFormBody({
  create,
  onCancel,
  onCreated,
}: {
  create: ReturnType<typeof useCreateCoupon>;
  onCancel: () => void;
  onCreated: () => void;
}) {
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<CouponForm, unknown, CreateCouponBody>({ resolver: couponResolver, defaultValues: emptyForm });
  const [kind, scope, valueText] = useWatch({ control, name: ['kind', 'scope', 'value'] });
  const [refusal, setRefusal] = useState<Refusal>();
  const ids = useId();

  const codeField = register('code');
  // Upper-case as typed, keeping the caret where it was.
  const upperCase = (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.target;
    const { selectionStart, selectionEnd } = input;
    input.value = input.value.toUpperCase();
    input.setSelectionRange(selectionStart, selectionEnd);
    return codeField.onChange(event);
  };

  const submit = handleSubmit((body) => {
    setRefusal(undefined);
    create.mutate(body, {
      onSuccess: (created) => {
        const where = created.courseIds === null ? 'all your courses' : created.courseIds.length === 1 ? 'one course' : `${created.courseIds.length} courses`;
        toast.success(m.form.created, { description: `${created.code} gives ${discountLabel(created)} ${where}.` });
        onCreated();
      },
      onError: (error) => {
        if (error instanceof ApiError && error.code === 'CONFLICT') setError('code', { type: 'server', message: error.message }, { shouldFocus: true });
        else if (error instanceof ApiError && error.code === 'PAYOUTS_NOT_READY') setRefusal({ kind: 'payouts' });
        else setRefusal({ kind: 'other', message: errorMessage(error, m.form.failed) });
      },
    });
  });

  const value = valueOf(kind, valueText);
  return (
    <form noValidate aria-label={m.form.title} className="grid gap-5" onSubmit={(event) => void submit(event)}>
      <FormField label="Code" error={errors.code?.message} description='3 to 32 letters, digits, "_" or "-". Buyers type it at checkout.' required>
        <Input
          {...codeField}
          onChange={upperCase}
          required
          maxLength={32}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          placeholder="SPRING20"
          className="font-mono uppercase placeholder:normal-case"
        />
      </FormField>

      <fieldset className="grid gap-3">
        <legend className="mb-2 text-sm font-medium">Discount</legend>
        <div className="flex flex-wrap gap-x-5 gap-y-2">
          <Choice {...register('kind')} value="percent" label="Percentage off" />
          <Choice {...register('kind')} value="amount" label="Amount off" />
        </div>
        <FormField
          label={kind === 'percent' ? 'Percent off' : 'Amount off (£)'}
          error={errors.value?.message}
          required
        >
          <Input {...register('value')} required inputMode={kind === 'percent' ? 'numeric' : 'decimal'} autoComplete="off" placeholder={kind === 'percent' ? '20' : '5.00'} className="max-w-40" />
        </FormField>
      </fieldset>

      <fieldset className="grid gap-3" aria-describedby={errors.courseIds ? `${ids}-courses-error` : undefined}>
        <legend className="mb-2 text-sm font-medium">Courses</legend>
        <div className="flex flex-wrap gap-x-5 gap-y-2">
          <Choice {...register('scope')} value="all" label="All my courses" />
          <Choice {...register('scope')} value="chosen" label="Chosen courses" />
        </div>
        {scope === 'all' ? (
          <p className="text-sm text-muted-foreground">Also the courses you publish later.</p>
        ) : (
          <Controller
            control={control}
            name="courseIds"
            render={({ field }) => <CoursePicker chosen={field.value} onChange={field.onChange} focusRef={field.ref} discount={value === undefined ? undefined : { kind, value }} />}
          />
        )}
        {errors.courseIds && (
          <p id={`${ids}-courses-error`} className="text-sm font-medium text-destructive">
            {errors.courseIds.message}
          </p>
        )}
      </fieldset>

      <div className="grid gap-5 sm:grid-cols-2">
        <FormField className="content-start" label="Max redemptions" error={errors.maxRedemptions?.message} description="Across all buyers. Empty: no limit.">
          <Input {...register('maxRedemptions')} inputMode="numeric" autoComplete="off" placeholder="No limit" />
        </FormField>
        <FormField className="content-start" label="Last day" error={errors.expiresAt?.message} description="Works through this day. Empty: never ends.">
          <Input {...register('expiresAt')} type="date" min={today()} />
        </FormField>
      </div>

      <Controller
        control={control}
        name="affiliateId"
        render={({ field }) => <AffiliateChoice value={field.value} onChange={field.onChange} />}
      />

      {refusal && <RefusalNote refusal={refusal} />}

      <DialogFooter>
        <Button variant="outline" disabled={create.isPending} onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" loading={create.isPending}>
          {m.form.submit}
        </Button>
      </DialogFooter>
    </form>
  );
}

/** A radio button with its label beside it. */
function Choice({ label, className, ...props }: ComponentProps<'input'> & { label: string }) {
  return (
    <label className={cn('flex cursor-pointer items-center gap-2 text-sm', className)}>
      <input type="radio" className="size-4 accent-primary" {...props} />
      {label}
    </label>
  );
}

function RefusalNote({ refusal }: { refusal: Refusal }) {
  if (refusal.kind !== 'payouts') return <RefusalAlert>{refusal.message}</RefusalAlert>;
  return (
    <RefusalAlert
      tone="warning"
      icon={CreditCard}
      title={m.form.notConnected}
      action={
        <Link to={`${paths.creator.profile}#payments`} className="w-fit font-medium underline underline-offset-4 hover:no-underline">
          {m.form.connect}
        </Link>
      }
    >
      {m.form.notConnectedDetail}
    </RefusalAlert>
  );
}

/**
 * The creator's courses as checkboxes, each with its price and, once the discount is valid, the price with it.
 * Drafts are listed too (a coupon can be ready before its course is published).
 */
function CoursePicker({
  chosen,
  onChange,
  focusRef,
  discount,
}: {
  chosen: string[];
  onChange: (ids: string[]) => void;
  focusRef: (element: HTMLInputElement | null) => void;
  discount: { kind: CouponForm['kind']; value: number } | undefined;
}) {
  const courses = useQuery(courseChoicesQueryOptions());
  if (courses.isPending) return <CourseCheckboxesLoading />;
  if (courses.isError) return <CourseCheckboxesFailed retrying={courses.isFetching} onRetry={() => void courses.refetch()} retryLabel={m.retry} />;
  if (courses.data.items.length === 0) {
    return <p className="rounded-lg border border-dashed p-3 text-sm text-muted-foreground">You have no courses yet: create one first, or make the coupon for all your courses.</p>;
  }
  return (
    <CourseCheckboxes
      courses={courses.data.items.map((course) => ({
        id: course.id,
        title: course.title,
        detail: <PriceLine course={course} discount={discount} />,
        badge: course.status === 'draft' ? 'Draft' : undefined,
      }))}
      chosen={chosen}
      onChange={onChange}
      focusRef={focusRef}
    />
  );
}

function PriceLine({ course, discount }: { course: CourseSummary; discount: { kind: CouponForm['kind']; value: number } | undefined }) {
  if (course.priceAmount === 0) return <>Not for sale yet</>;
  const price = formatPounds(course.priceAmount);
  if (!discount || (discount.kind === 'percent' && discount.value > 100)) return <>{price}</>;
  const after = course.priceAmount - discountOf(discount, course.priceAmount);
  return (
    <>
      <s>{price}</s>{' '}
      <span className="sr-only">becomes</span>
      <span aria-hidden="true">→</span> {after === 0 ? 'free' : formatPounds(after)} with this coupon
    </>
  );
}

/**
 * 'Credit an affiliate': shown once the creator has affiliates. A sale with the code then goes to the affiliate
 * chosen, with or without their link's cookie.
 */
function AffiliateChoice({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const affiliates = useQuery(affiliatesQueryOptions());
  const id = useId();
  const items = affiliates.data?.items ?? [];
  if (items.length === 0) return null;
  return (
    <div className="grid gap-2">
      <label htmlFor={id} className="text-sm font-medium">
        Credit an affiliate
      </label>
      <Select value={value} onValueChange={onChange}>
        <SelectTrigger id={id} aria-describedby={`${id}-hint`} className="sm:max-w-80">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          <SelectItem value={NO_AFFILIATE}>Nobody</SelectItem>
          {items.map((affiliate) => (
            <SelectItem key={affiliate.id} value={affiliate.id}>
              {affiliate.name}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
      <p id={`${id}-hint`} className="text-sm text-muted-foreground">
        Sales with this code earn the affiliate their commission, even without their link.
      </p>
    </div>
  );
}
