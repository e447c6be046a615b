import { useInfiniteQuery } from '@tanstack/react-query';
import { KeyRound, Plus, XCircle } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { grantLicenseBody, LICENSE_SEATS_MAX, updateLicenseBody, type GrantLicenseBody, type License } from '@contracts/licenses.ts';
import { PlanGate, PlanRequiredNote, ProBadge } from '@/components/plan-gate.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog.tsx';
import { FormDialog } from '@/components/ui/form-dialog.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import { LoadFailedInline } from '@/components/ui/load-failed.tsx';
import { LoadMore } from '@/components/ui/load-more.tsx';
import { Progress } from '@/components/ui/progress.tsx';
import { RefusalAlert } from '@/components/ui/refusal-alert.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { VerifyEmailPanel } from '@/components/verify-email.tsx';
import { ApiError } from '@/lib/api-error.ts';
import { useEntitlements } from '@/lib/entitlements.ts';
import { errorMessage } from '@/lib/error-message.ts';
import { planRequiredBy } from '@/lib/plan-required.ts';
import { endOfDay, formatDay, today } from '@/lib/format-date.ts';
import { courseMessages } from '../course-messages.ts';
import { courseLicensesQueryOptions } from '../api/course-queries.ts';
import { useEndLicense, useGrantLicense, useUpdateLicenseSeats } from '../api/use-course-mutations.ts';
import { contractResolution } from '@/lib/contract-resolver.ts';

const MAX_SEATS = LICENSE_SEATS_MAX.toLocaleString('en-GB');

/** '1 seat', '10 seats'. */
const seatsOf = (n: number): string => `${n.toLocaleString('en-GB')} ${n === 1 ? 'seat' : 'seats'}`;



/** Why a licence over the plan's seats is refused (Starter: up to 10 each), in words. */
export const seatLimitReason = (limit: number): string =>
  `Licences on your plan have up to ${seatsOf(limit)} each. Team licences of any size are part of the Pro plan.`;
/** Why a licence's end date is locked (advanced licensing is Pro). */
export const END_DATE_REASON = 'Licences on your plan have no end date. End dates are part of the Pro plan.';

/** 'Ends 31 Dec 2026', 'No end date'; an end date passed reads 'Ended ...'; an ended licence without one says nothing. */
const endLabel = (l: Pick<License, 'expiresAt' | 'status'>, now: Date = new Date()): string | undefined => {
  if (l.expiresAt === null) return l.status === 'ended' ? undefined : 'No end date';
  if (new Date(l.expiresAt) <= now) return `Ended ${formatDay(l.expiresAt)}`;
  return l.status === 'ended' ? undefined : `Ends ${formatDay(l.expiresAt)}`;
};

/**
 * The course's team licences: 'Grant a licence' (one sold outside the platform, for a group leader's email), the
 * list of licences granted or bought on the course page with the seats in use, and, for an active one, more seats
 * or the end now (after a confirmation: its members lose the course, their progress is kept). Without a plan the
 * licences stay listed, read-only, with the way to a plan instead of 'Grant a licence' (issue 29).
 */
export function LicensesPanel({ courseId, courseTitle }: { courseId: string; courseTitle: string }) {
  const licenses = useInfiniteQuery(courseLicensesQueryOptions(courseId));
  const items = licenses.data?.pages.flatMap((page) => page.items) ?? [];
  const end = useEndLicense(courseId);
  const [granting, setGranting] = useState(false);
  const [adding, setAdding] = useState<License | undefined>();
  const [ending, setEnding] = useState<License | undefined>();
  const readOnly = useEntitlements().locked('teamLicenses');

  return (
    <Card aria-labelledby="licenses-title" role="region">
      <CardHeader>
        <CardTitle id="licenses-title">Team licences</CardTitle>
        <CardDescription>
          Seats on this course for a team, run by its group leader. Grant one for a licence sold outside the platform; teams who buy seats on your course page
          appear here too.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5 *:min-w-0">
        <PlanGate feature="teamLicenses" label="Grant a licence" action="grant team licences" className="w-fit">
          <Button variant="outline" className="w-fit" onClick={() => setGranting(true)}>
            <Plus aria-hidden="true" />
            Grant a licence
          </Button>
        </PlanGate>

        {licenses.isPending ? (
          <div role="status" aria-busy="true" className="grid gap-2">
            <span className="sr-only">Loading licences...</span>
            <Skeleton className="h-20" />
            <Skeleton className="h-20" />
          </div>
        ) : licenses.isError ? (
          <LoadFailedInline message="The licences could not be loaded." onRetry={() => void licenses.refetch()} retrying={licenses.isFetching} />
        ) : items.length === 0 ? (
          <p className="rounded-lg border border-dashed bg-subtle px-4 py-6 text-center text-sm text-muted-foreground">No team licences yet.</p>
        ) : (
          <>
            <ul className="divide-y rounded-lg border" aria-label="Licences">
              {items.map((license) => (
                <LicenseRow key={license.id} license={license} readOnly={readOnly} onAddSeats={() => setAdding(license)} onEnd={() => setEnding(license)} />
              ))}
            </ul>
            <LoadMore pages={licenses} />
          </>
        )}
      </CardContent>

      <GrantLicenseDialog courseId={courseId} open={granting} onOpenChange={setGranting} />
      <SeatsDialog courseId={courseId} license={adding} onClose={() => setAdding(undefined)} />
      <ConfirmDialog
        open={ending !== undefined}
        onOpenChange={(open) => !open && setEnding(undefined)}
        title="End this licence?"
        action="End licence"
        busy={end.isPending}
        onConfirm={() => ending && end.mutate(ending.id, { onSuccess: () => setEnding(undefined) })}
      >
        {ending &&
          (ending.seatsUsed === 0
            ? `No one holds a seat on ${ending.leaderEmail}'s licence yet. Once it ends, its seats give no access to “${courseTitle}”.`
            : `${ending.leaderEmail}'s team: its ${ending.seatsUsed === 1 ? 'member loses' : `${ending.seatsUsed.toLocaleString('en-GB')} members lose`} access to “${courseTitle}” now. They keep their progress.`)}
      </ConfirmDialog>
    </Card>
  );
}

function LicenseRow({ license, readOnly, onAddSeats, onEnd }: { license: License; readOnly: boolean; onAddSeats: () => void; onEnd: () => void }) {
  const active = license.status === 'active';
  const used = `${license.seatsUsed.toLocaleString('en-GB')} of ${seatsOf(license.seatsTotal)} used`;
  const ends = endLabel(license);
  return (
    <li className="grid gap-2 p-3" data-testid="license-row">
      <div className="flex flex-wrap items-center gap-2">
        <span className="min-w-0 flex-1 basis-40 text-sm font-medium [overflow-wrap:anywhere]">{license.leaderEmail}</span>
        {license.source === 'purchased' && <Badge variant="secondary">Bought</Badge>}
        {!active && (
          <Badge variant="outline" className="text-muted-foreground">
            Ended
          </Badge>
        )}
      </div>
      <div className="grid gap-1">
        <Progress
          value={license.seatsTotal === 0 ? 0 : Math.round((license.seatsUsed / license.seatsTotal) * 100)}
          aria-label={`${license.leaderEmail}'s licence: ${used}`}
          className={active ? undefined : 'opacity-60'}
        />
        <p className="flex flex-wrap justify-between gap-x-3 text-xs text-muted-foreground">
          <span className="tabular-nums">{used}</span>
          {ends && <span>{ends}</span>}
        </p>
      </div>
      {active && !readOnly && (
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" size="sm" aria-label={`Add seats to ${license.leaderEmail}'s licence`} onClick={onAddSeats}>
            <KeyRound aria-hidden="true" />
            Add seats
          </Button>
          <Button variant="ghost" size="sm" className="text-destructive hover:text-destructive" aria-label={`End ${license.leaderEmail}'s licence`} onClick={onEnd}>
            <XCircle aria-hidden="true" />
            End licence
          </Button>
        </div>
      )}
    </li>
  );
}

/** What the grant form holds: the fields as typed (a local day); the resolver turns them into the contract's body. */
interface GrantForm {
  leaderEmail: string;
  seats: string;
  expiresAt: string;
}

const emptyGrant: GrantForm = { leaderEmail: '', seats: '', expiresAt: '' };

/** The words of each field's problem when the contract finds one there. */
const grantProblemOf: Record<keyof GrantForm, string> = {
  leaderEmail: 'Enter the group leader’s email address, such as sam@example.com.',
  seats: `A whole number of seats from 1 to ${MAX_SEATS}.`,
  expiresAt: 'Pick today or a later day.',
};

/** A whole number as typed ('10', ' 1,000 '), or undefined when it is not one. */
const wholeNumber = (text: string): number | undefined => {
  const typed = text.trim().replaceAll(',', '');
  return /^\d{1,6}$/.test(typed) ? Number(typed) : undefined;
};

/** The form's fields to `grantLicenseBody`, validated by the contract itself; each issue lands on the field it names. */
const grantResolver: Resolver<GrantForm, unknown, GrantLicenseBody> = (values) => {
  const problems: Partial<Record<keyof GrantForm, string>> = {};
  const seats = wholeNumber(values.seats);
  if (seats === undefined) problems.seats = grantProblemOf.seats;
  if (values.expiresAt !== '' && values.expiresAt < today()) problems.expiresAt = grantProblemOf.expiresAt;
  const parsed = grantLicenseBody.safeParse({
    leaderEmail: values.leaderEmail.trim(),
    seats: seats ?? 0,
    ...(values.expiresAt === '' ? {} : { expiresAt: endOfDay(values.expiresAt) }),
  });
  return contractResolution(parsed, problems, (issue) => {
    const field = String(issue.path[0]) as keyof GrantForm;
    return Object.hasOwn(grantProblemOf, field) ? [field, grantProblemOf[field]] : undefined;
  });
};

/** The field a 400's details name (`[{path, message}]`, the path a string or an array), when it is one of the form's. */
const fieldIssue = (error: ApiError): { field: keyof GrantForm; message: string } | undefined => {
  if (error.code !== 'VALIDATION_FAILED' || !Array.isArray(error.details)) return undefined;
  for (const detail of error.details as { path?: unknown; message?: unknown }[]) {
    const head = Array.isArray(detail.path) ? String(detail.path[0]) : String(detail.path);
    if (Object.hasOwn(grantProblemOf, head)) return { field: head as keyof GrantForm, message: typeof detail.message === 'string' ? detail.message : error.message };
  }
  return undefined;
};

/**
 * 'Grant a licence': the group leader's email, the seats and an optional last day. Checked with the contract before
 * sending; the server's refusals stay in the dialog (an email of another role on the email field).
 */
function GrantLicenseDialog({ courseId, open, onOpenChange }: { courseId: string; open: boolean; onOpenChange: (open: boolean) => void }) {
  const grant = useGrantLicense(courseId);
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      busy={grant.isPending}
      title="Grant a licence"
      description="The group leader gives its seats to their team. A new email gets a group leader account and an email with how to sign in."
    >
      {(cancel) => <GrantForm grant={grant} onCancel={cancel} onGranted={() => onOpenChange(false)} />}
    </FormDialog>
  );
}

function GrantForm({ grant, onCancel, onGranted }: { grant: ReturnType<typeof useGrantLicense>; onCancel: () => void; onGranted: () => void }) {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<GrantForm, unknown, GrantLicenseBody>({ resolver: grantResolver, defaultValues: emptyGrant });
  const [refusal, setRefusal] = useState<string>();
  const [planNeeded, setPlanNeeded] = useState<{ plan: 'starter' | 'pro'; reason: string }>();
  const [unverified, setUnverified] = useState<string>();
  const { seatLimit, locked } = useEntitlements();
  const endDates = !locked('advancedLicensing');

  const submit = handleSubmit((body) => {
    setRefusal(undefined);
    setPlanNeeded(undefined);
    setUnverified(undefined);
    // The plan's limit, before sending (the server refuses the same with 403 PLAN_REQUIRED).
    if (seatLimit !== null && body.seats > seatLimit) {
      setError('seats', { type: 'plan', message: `Up to ${seatsOf(seatLimit)} on your plan.` }, { shouldFocus: true });
      setPlanNeeded({ plan: 'pro', reason: seatLimitReason(seatLimit) });
      return;
    }
    grant.mutate(body, {
      onSuccess: onGranted,
      onError: (error) => {
        const issue = error instanceof ApiError ? fieldIssue(error) : undefined;
        if (error instanceof ApiError && error.code === 'CONFLICT') setError('leaderEmail', { type: 'server', message: error.message }, { shouldFocus: true });
        else if (issue) setError(issue.field, { type: 'server', message: issue.message }, { shouldFocus: true });
        else if (error instanceof ApiError && error.code === 'EMAIL_NOT_VERIFIED') setUnverified(error.message);
        else if (planRequiredBy(error)) setPlanNeeded({ plan: planRequiredBy(error)!, reason: error.message });
        else setRefusal(errorMessage(error, courseMessages.failed));
      },
    });
  });

  // The code panel has a form of its own, so the grant's form ends before it and the footer's submit names its form.
  return (
    <div className="grid gap-5">
      <form id="grant-licence" noValidate aria-label="Grant a licence" className="grid gap-5" onSubmit={(event) => void submit(event)}>
        <FormField label="Leader email" error={errors.leaderEmail?.message} description="The group leader who gives the seats to their team." required>
          <Input {...register('leaderEmail')} type="email" required maxLength={254} autoComplete="off" spellCheck={false} placeholder="leader@example.com" />
        </FormField>
        <div className="grid gap-5 sm:grid-cols-2">
          <FormField
            className="content-start"
            label="Seats"
            error={errors.seats?.message}
            description={seatLimit === null ? `1 to ${MAX_SEATS}.` : `1 to ${seatLimit.toLocaleString('en-GB')} on your plan.`}
            required
          >
            <Input {...register('seats')} type="number" required min={1} max={LICENSE_SEATS_MAX} step={1} inputMode="numeric" autoComplete="off" placeholder="10" />
          </FormField>
          {endDates ? (
            <FormField className="content-start" label="Last day" error={errors.expiresAt?.message} description="Works through this day. Empty: no end date.">
              <Input {...register('expiresAt')} type="date" min={today()} />
            </FormField>
          ) : (
            <LockedEndDate />
          )}
        </div>

        {refusal && <RefusalNote message={refusal} />}
        {planNeeded && <PlanRequiredNote plan={planNeeded.plan} reason={planNeeded.reason} />}
      </form>
      {/* The leader's invitation goes out for the creator: verify here, then grant again. */}
      {unverified && <VerifyEmailPanel reason={`${unverified} Then press Grant licence again.`} />}

      <DialogFooter>
        <Button variant="outline" disabled={grant.isPending} onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" form="grant-licence" loading={grant.isPending}>
          Grant licence
        </Button>
      </DialogFooter>
    </div>
  );
}

/** 'Add seats': the seats in total, never below those in use; the server's refusal (409) stays in the dialog. */
function SeatsDialog({ courseId, license, onClose }: { courseId: string; license: License | undefined; onClose: () => void }) {
  const update = useUpdateLicenseSeats(courseId);
  return (
    <Dialog open={license !== undefined} onOpenChange={(open) => !open && !update.isPending && onClose()}>
      <DialogContent className="sm:max-w-sm">
        <DialogHeader>
          <DialogTitle>Add seats</DialogTitle>
          <DialogDescription>
            {license && `${license.leaderEmail}'s licence: ${license.seatsUsed.toLocaleString('en-GB')} of ${seatsOf(license.seatsTotal)} in use.`}
          </DialogDescription>
        </DialogHeader>
        {license && <SeatsForm license={license} update={update} onDone={onClose} />}
      </DialogContent>
    </Dialog>
  );
}

function SeatsForm({ license, update, onDone }: { license: License; update: ReturnType<typeof useUpdateLicenseSeats>; onDone: () => void }) {
  const [typed, setTyped] = useState(String(license.seatsTotal));
  const [error, setError] = useState<string>();
  const [refusal, setRefusal] = useState<string>();
  const [planNeeded, setPlanNeeded] = useState<{ plan: 'starter' | 'pro'; reason: string }>();
  const { seatLimit } = useEntitlements();
  const least = Math.max(1, license.seatsUsed);

  const save = (event: FormEvent) => {
    event.preventDefault();
    const seatsTotal = wholeNumber(typed);
    if (seatsTotal === undefined || seatsTotal < least || !updateLicenseBody.safeParse({ seatsTotal }).success) {
      setError(
        license.seatsUsed > 0
          ? `A whole number from ${least.toLocaleString('en-GB')} (the seats in use) to ${MAX_SEATS}.`
          : `A whole number from 1 to ${MAX_SEATS}.`,
      );
      return;
    }
    setError(undefined);
    setRefusal(undefined);
    setPlanNeeded(undefined);
    // More seats than the plan allows (a licence made on Pro keeps its seats; it only cannot grow past the limit).
    if (seatLimit !== null && seatsTotal > seatLimit && seatsTotal > license.seatsTotal) {
      setError(`Up to ${seatsOf(seatLimit)} on your plan.`);
      setPlanNeeded({ plan: 'pro', reason: seatLimitReason(seatLimit) });
      return;
    }
    update.mutate(
      { licenseId: license.id, seatsTotal },
      {
        onSuccess: onDone,
        onError: (failure) => {
          const plan = planRequiredBy(failure);
          if (plan) setPlanNeeded({ plan, reason: errorMessage(failure) });
          else setRefusal(errorMessage(failure, courseMessages.failed));
        },
      },
    );
  };

  return (
    <form noValidate aria-label="Seats on the licence" className="grid gap-5" onSubmit={save}>
      <FormField label="Seats in total" error={error} description={`At least ${least.toLocaleString('en-GB')}, up to ${MAX_SEATS}.`} required>
        <Input
          type="number"
          required
          min={least}
          max={LICENSE_SEATS_MAX}
          step={1}
          inputMode="numeric"
          autoComplete="off"
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
        />
      </FormField>

      {refusal && <RefusalNote message={refusal} />}
      {planNeeded && <PlanRequiredNote plan={planNeeded.plan} reason={planNeeded.reason} />}

      <DialogFooter>
        <Button variant="outline" disabled={update.isPending} onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" loading={update.isPending}>
          Save seats
        </Button>
      </DialogFooter>
    </form>
  );
}

/** 'Last day' on a plan without end dates: the lock, 'Pro', and why (the upgrade path is one click away). */
function LockedEndDate() {
  return (
    <div className="grid content-start gap-2" data-testid="locked-end-date">
      <p className="flex items-center gap-2 text-sm leading-none font-medium">
        Last day <ProBadge />
      </p>
      <p className="text-sm text-muted-foreground">{END_DATE_REASON}</p>
      <PlanGate feature="advancedLicensing" label="Set an end date" action="set end dates" reason={END_DATE_REASON} size="sm" className="w-fit">
        {null}
      </PlanGate>
    </div>
  );
}

function RefusalNote({ message }: { message: string }) {
  return (
    <RefusalAlert>{message}</RefusalAlert>
  );
}
