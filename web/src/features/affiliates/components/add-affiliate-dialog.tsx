import { Mail } from 'lucide-react';
import { useState } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { Link } from 'react-router-dom';
import {
  AFFILIATE_DEFAULT_COOKIE_DAYS,
  AFFILIATE_DEFAULT_HOLD_DAYS,
  createAffiliateBody,
  type CreateAffiliateBody,
} from '@contracts/affiliates.ts';
import { Button } from '@/components/ui/button.tsx';
import { DialogFooter } from '@/components/ui/dialog.tsx';
import { FormDialog } from '@/components/ui/form-dialog.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import { RefusalAlert } from '@/components/ui/refusal-alert.tsx';
import { toast } from '@/components/ui/toaster.tsx';
import { VerifyEmailPanel } from '@/components/verify-email.tsx';
import { ApiError } from '@/lib/api-error.ts';
import { errorMessage } from '@/lib/error-message.ts';
import { paths } from '@/lib/paths.ts';
import { affiliatesMessages as m } from '../affiliates-messages.ts';
import { useCreateAffiliate } from '../api/affiliates-queries.ts';
import { contractResolution } from '@/lib/contract-resolver.ts';

/** What the form holds: the fields as typed; the resolver turns them into the contract's body. */
export interface AffiliateForm {
  name: string;
  email: string;
  commissionPercent: string;
  cookieDays: string;
  holdDays: string;
}

const emptyForm: AffiliateForm = {
  name: '',
  email: '',
  commissionPercent: '',
  cookieDays: String(AFFILIATE_DEFAULT_COOKIE_DAYS),
  holdDays: String(AFFILIATE_DEFAULT_HOLD_DAYS),
};

/** The words of each field's problem when the contract finds one there (its own words are a developer's). */
const problemOf: Record<keyof AffiliateForm, string> = {
  name: 'Give the affiliate a name, up to 100 characters.',
  email: 'Enter an email address, such as sam@example.com.',
  commissionPercent: 'A commission is 1 to 90 percent.',
  cookieDays: 'A whole number of days from 1 to 365.',
  holdDays: 'A whole number of days from 0 to 90.',
};

/** A whole number as typed ('30', ' 7 '), or undefined when it is not one. */
const wholeNumber = (text: string): number | undefined => (/^\s*\d{1,4}\s*$/.test(text) ? Number(text) : undefined);

/** A percent as typed ('10', '12.5', '15%'), or undefined when it is not one. */
const percentOf = (text: string): number | undefined => {
  const match = /^\s*(\d{1,3}(?:\.\d{1,2})?)\s*%?\s*$/.exec(text);
  return match ? Number(match[1]) : undefined;
};

/**
 * The form's fields to `createAffiliateBody`, validated by the contract itself: what cannot even be converted (a
 * percent that is not a number, days that are not whole) is said in the words of the field; then every issue the
 * contract finds lands on the field it names.
 */
export const affiliateResolver: Resolver<AffiliateForm, unknown, CreateAffiliateBody> = (values) => {
  const problems: Partial<Record<keyof AffiliateForm, string>> = {};
  const commissionPercent = percentOf(values.commissionPercent);
  const cookieDays = wholeNumber(values.cookieDays);
  const holdDays = wholeNumber(values.holdDays);
  if (commissionPercent === undefined) problems.commissionPercent = problemOf.commissionPercent;
  if (cookieDays === undefined) problems.cookieDays = problemOf.cookieDays;
  if (holdDays === undefined) problems.holdDays = problemOf.holdDays;

  const parsed = createAffiliateBody.safeParse({
    name: values.name,
    email: values.email.trim(),
    commissionPercent: commissionPercent ?? 0,
    cookieDays: cookieDays ?? 0,
    holdDays: holdDays ?? -1,
  });
  return contractResolution(parsed, problems, (issue) => {
    const field = String(issue.path[0]) as keyof AffiliateForm;
    if (!Object.hasOwn(problemOf, field)) return undefined;
    // The contract's own sentence where it has one written for people ('Give the affiliate a name.').
    return [field, field === 'name' && values.name.trim() === '' ? issue.message : problemOf[field]];
  });
};

/** A refusal the form shows above its buttons: not on Pro (with the way there), an email to verify first (with the code field), or the server's reason. */
type Refusal = { kind: 'plan' | 'unverified' | 'other'; message: string };

/**
 * 'Add affiliate': name, email, commission, cookie window and refund hold (both 30 days unless changed). Checked
 * with the contract before sending; the server's refusals stay in the dialog (an email already in the list on the
 * email field, a creator no longer on Pro with the way to upgrade).
 */
export function AddAffiliateDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const create = useCreateAffiliate();
  return (
    <FormDialog open={open} onOpenChange={onOpenChange} busy={create.isPending} title={m.form.title} description={m.form.description} className="sm:max-w-lg">
      {(cancel) => <AffiliateFormBody create={create} onCancel={cancel} onAdded={() => onOpenChange(false)} />}
    </FormDialog>
  );
}

function AffiliateFormBody({
  create,
  onCancel,
  onAdded,
}: {
  create: ReturnType<typeof useCreateAffiliate>;
  onCancel: () => void;
  onAdded: () => void;
}) {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<AffiliateForm, unknown, CreateAffiliateBody>({ resolver: affiliateResolver, defaultValues: emptyForm });
  const [refusal, setRefusal] = useState<Refusal>();

  const submit = handleSubmit((body) => {
    setRefusal(undefined);
    create.mutate(body, {
      onSuccess: (added) => {
        toast.success(m.form.added, { description: `${added.name} gets their link by email, and earns ${added.commissionPercent}% of each sale it brings.` });
        onAdded();
      },
      onError: (error) => {
        if (error instanceof ApiError && error.code === 'CONFLICT') setError('email', { type: 'server', message: m.form.taken }, { shouldFocus: true });
        else if (error instanceof ApiError && error.code === 'FORBIDDEN') setRefusal({ kind: 'plan', message: error.message });
        else if (error instanceof ApiError && error.code === 'EMAIL_NOT_VERIFIED') setRefusal({ kind: 'unverified', message: error.message });
        else setRefusal({ kind: 'other', message: errorMessage(error, m.form.failed) });
      },
    });
  });

  // The code panel has a form of its own, so the affiliate's form ends before it and the footer's submit names its form.
  return (
    <div className="grid gap-5">
      <form id="add-affiliate" noValidate aria-label={m.form.title} className="grid gap-5" onSubmit={(event) => void submit(event)}>
        <FormField label="Name" error={errors.name?.message} description="How they appear in your list and in the email we send them." required>
          <Input {...register('name')} required maxLength={100} autoComplete="off" placeholder="Sam Taylor" />
        </FormField>
        <FormField label="Email" error={errors.email?.message} description="Where we send their link. One affiliate per email." required>
          <Input {...register('email')} type="email" required maxLength={254} autoComplete="off" spellCheck={false} placeholder="sam@example.com" />
        </FormField>
        <FormField
          label="Commission (%)"
          error={errors.commissionPercent?.message}
          description="Their share of what each buyer pays after any discount: 1 to 90."
          required
        >
          <Input {...register('commissionPercent')} required inputMode="decimal" autoComplete="off" placeholder="20" className="max-w-32" />
        </FormField>
        <div className="grid gap-5 sm:grid-cols-2">
          <FormField
            className="content-start"
            label="Cookie window (days)"
            error={errors.cookieDays?.message}
            description="A buyer who pays this long after clicking their link still counts: 1 to 365."
          >
            <Input {...register('cookieDays')} inputMode="numeric" autoComplete="off" className="max-w-32" />
          </FormField>
          <FormField
            className="content-start"
            label="Refund hold (days)"
            error={errors.holdDays?.message}
            description="A commission waits this long, while a refund can still cancel it, before you can pay it: 0 to 90."
          >
            <Input {...register('holdDays')} inputMode="numeric" autoComplete="off" className="max-w-32" />
          </FormField>
        </div>

        <p className="flex gap-2 rounded-lg bg-muted/60 p-3 text-sm text-muted-foreground">
          <Mail aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          <span>We email the affiliate their link as soon as you add them. You can copy it from the list too.</span>
        </p>

        {refusal && refusal.kind !== 'unverified' && <RefusalNote refusal={refusal} />}
      </form>
      {refusal?.kind === 'unverified' && (
        // The link's email goes out for the creator: verify here, then add again.
        <VerifyEmailPanel reason={`${refusal.message} Then press ${m.form.submit} again.`} />
      )}

      <DialogFooter>
        <Button variant="outline" disabled={create.isPending} onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" form="add-affiliate" loading={create.isPending}>
          {m.form.submit}
        </Button>
      </DialogFooter>
    </div>
  );
}

function RefusalNote({ refusal }: { refusal: Refusal }) {
  return (
    <RefusalAlert
      action={
        refusal.kind === 'plan' && (
          <Link to={paths.creator.dashboard} className="w-fit font-medium underline underline-offset-4 hover:no-underline">
            {m.plan.upgrade}
          </Link>
        )
      }
    >
      {refusal.message}
    </RefusalAlert>
  );
}
