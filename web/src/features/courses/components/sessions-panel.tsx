import { useQuery } from '@tanstack/react-query';
import { CalendarPlus, Clock, Copy, ExternalLink, Pencil, XCircle } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { integrationProviders, isConnected, serviceOfProvider, type IntegrationProvider } from '@contracts/integrations.ts';
import {
  joinWindow,
  scheduleSessionBody,
  SESSION_DESCRIPTION_MAX,
  SESSION_MINUTES_MAX,
  SESSION_MINUTES_MIN,
  SESSION_TITLE_MAX,
  type LiveSession,
  type UpdateSessionBody,
} from '@contracts/live-sessions.ts';
import { Badge } from '@/components/ui/badge.tsx';
import { SessionWhen } from '@/components/session-when.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import { DialogFooter } from '@/components/ui/dialog.tsx';
import { FormDialog } from '@/components/ui/form-dialog.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import { LoadFailedInline } from '@/components/ui/load-failed.tsx';
import { RefusalAlert } from '@/components/ui/refusal-alert.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { Textarea } from '@/components/ui/textarea.tsx';
import { toast, toastError } from '@/components/ui/toaster.tsx';
import { ApiError } from '@/lib/api-error.ts';
import { errorMessage } from '@/lib/error-message.ts';
import { browserZone, formatDuration, formatSessionStart, providerName } from '@/lib/format-session.ts';
import { newIdempotencyKey } from '@/lib/idempotency-key.ts';
import { paths } from '@/lib/paths.ts';
import { cn } from '@/lib/utils.ts';
import { courseSessionsQueryOptions, integrationsStatusQueryOptions } from '../api/course-queries.ts';
import { pendingMessage, sessionMessages, useCancelSession, useRescheduleSession, useScheduleSession } from '../api/use-course-mutations.ts';
import { courseMessages } from '../course-messages.ts';

/** The durations offered, in minutes (the contract's 15 to 480). */
export const SESSION_DURATIONS = [15, 30, 45, 60, 75, 90, 120, 150, 180, 240, 300, 360, 420, 480].filter(
  (m) => m >= SESSION_MINUTES_MIN && m <= SESSION_MINUTES_MAX,
);

// Native selects, as in the CRM and landing features: keyboard and screen-reader friendly, a phone shows its own picker.
const selectClass = cn(
  'h-10 w-full rounded-md border border-input bg-background px-3 text-base shadow-xs sm:text-sm',
  'outline-none focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/50 disabled:opacity-60',
);

/** The server tries a provider again until a day after the session's end (functions/core/live-sessions/sessions.ts). */
const RETRIES_STOP_AFTER_END_MS = 86_400_000;

/** Still ahead (or running): scheduled and not ended. */
const isUpcoming = (session: LiveSession, now: number): boolean => session.status === 'scheduled' && joinWindow(session).endsAt > now;

/**
 * The course's live sessions (issue 30): the upcoming ones with the host's 'Start meeting' link and the learners' join
 * link to copy, past and cancelled ones folded below; 'Schedule session' among the CONNECTED providers only, 'Change'
 * and 'Cancel' (after a confirmation). Without a plan the list is read-only, but cancelling stays (the route needs no plan).
 * A change or cancellation the provider has not made yet (`providerSync: 'pending'`: it was down or refused; the
 * server keeps trying) says so under the session, with the provider's reason.
 */
export function SessionsPanel({ courseId, readOnly }: { courseId: string; readOnly: boolean }) {
  const sessions = useQuery(courseSessionsQueryOptions(courseId));
  const integrations = useQuery(integrationsStatusQueryOptions());
  const cancel = useCancelSession(courseId);
  const [dialog, setDialog] = useState<{ mode: 'schedule' } | { mode: 'change'; session: LiveSession } | undefined>();
  const [cancelling, setCancelling] = useState<LiveSession | undefined>();
  const connected = integrations.data ? integrationProviders.filter((p) => isConnected(integrations.data, serviceOfProvider[p])) : [];
  const now = Date.now();
  const items = sessions.data?.items ?? [];
  const upcoming = items.filter((s) => isUpcoming(s, now));
  const past = items.filter((s) => !isUpcoming(s, now)).reverse();

  return (
    <Card aria-labelledby="sessions-title" role="region">
      <CardHeader>
        <CardTitle id="sessions-title">Live sessions</CardTitle>
        <CardDescription>
          Meetings for this course&apos;s learners, made in your own Zoom, Microsoft Teams or Google Calendar. Times are in your time zone ({browserZone()}).
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5 *:min-w-0">
        {!readOnly &&
          (integrations.isPending ? (
            <Skeleton className="h-9 w-40" />
          ) : integrations.isError ? (
            <p role="alert" className="text-sm text-muted-foreground">
              Your connected tools could not be loaded, so a session cannot be scheduled now.{' '}
              <Button variant="link" className="h-auto p-0" onClick={() => void integrations.refetch()}>
                Try again
              </Button>
            </p>
          ) : connected.length === 0 ? (
            <p className="rounded-lg border border-dashed bg-subtle px-4 py-4 text-sm text-muted-foreground" data-testid="no-provider">
              To schedule a session, connect Zoom, Microsoft Teams or Google Calendar first in{' '}
              <Link to={paths.creator.integrations} className="font-medium text-foreground underline underline-offset-4">
                Live Session Integrations
              </Link>
              .
            </p>
          ) : (
            <Button variant="outline" className="w-fit" onClick={() => setDialog({ mode: 'schedule' })}>
              <CalendarPlus aria-hidden="true" />
              Schedule session
            </Button>
          ))}

        {sessions.isPending ? (
          <div role="status" aria-busy="true" className="grid gap-2">
            <span className="sr-only">Loading live sessions...</span>
            <Skeleton className="h-20" />
          </div>
        ) : sessions.isError ? (
          <LoadFailedInline message="The live sessions could not be loaded." onRetry={() => void sessions.refetch()} retrying={sessions.isFetching} />
        ) : (
          <>
            {upcoming.length === 0 ? (
              <p className="rounded-lg border border-dashed bg-subtle px-4 py-6 text-center text-sm text-muted-foreground">No upcoming sessions.</p>
            ) : (
              <ul className="divide-y rounded-lg border" aria-label="Upcoming sessions">
                {upcoming.map((session) => (
                  <SessionRow
                    key={session.id}
                    session={session}
                    readOnly={readOnly}
                    onChange={() => setDialog({ mode: 'change', session })}
                    onCancel={() => setCancelling(session)}
                  />
                ))}
              </ul>
            )}
            {past.length > 0 && (
              <details className="group rounded-lg border">
                <summary className="cursor-pointer rounded-lg px-3 py-2 text-sm font-medium outline-none focus-visible:ring-2 focus-visible:ring-ring/50">
                  Past and cancelled ({past.length})
                </summary>
                <ul className="divide-y border-t" aria-label="Past and cancelled sessions">
                  {past.map((session) => (
                    <SessionRow key={session.id} session={session} readOnly />
                  ))}
                </ul>
              </details>
            )}
          </>
        )}
      </CardContent>

      <SessionDialog courseId={courseId} dialog={dialog} connected={connected} onClose={() => setDialog(undefined)} />
      <ConfirmDialog
        open={cancelling !== undefined}
        onOpenChange={(open) => !open && setCancelling(undefined)}
        title={cancelling ? `Cancel “${cancelling.title}”?` : 'Cancel this session?'}
        action="Cancel session"
        dismiss="Keep session"
        busy={cancel.isPending}
        onConfirm={() =>
          cancelling &&
          cancel.mutate(cancelling.id, {
            onSuccess: (answer) => {
              const provider = providerName(cancelling.provider);
              const text = answer?.providerSync === 'pending' ? sessionMessages.cancelledPending(cancelling.title, provider) : sessionMessages.cancelled(cancelling.title, provider);
              toast.success(text.title, { description: text.description });
              setCancelling(undefined);
            },
            onError: (error) => toastError(error, courseMessages.failed),
          })
        }
      >
        {cancelling && `${formatSessionStart(cancelling.startsAt)}. The meeting is deleted in ${providerName(cancelling.provider)}. The session stays listed here as cancelled. Enrolled learners are emailed the cancellation.`}
      </ConfirmDialog>
    </Card>
  );
}

function SessionRow({ session, readOnly, onChange, onCancel }: { session: LiveSession; readOnly: boolean; onChange?: () => void; onCancel?: () => void }) {
  const cancelled = session.status === 'cancelled';
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(session.joinUrl);
      toast.success('Join link copied', { description: 'Learners see it on their dashboard too.' });
    } catch {
      toast.error('The join link could not be copied', { description: session.joinUrl });
    }
  };
  return (
    <li className="grid gap-2 p-3" data-testid="session-row">
      <div className="flex flex-wrap items-center gap-2">
        <span className="min-w-0 flex-1 basis-48 text-sm font-medium [overflow-wrap:anywhere]">{session.title}</span>
        {cancelled && (
          <Badge variant="outline" className="text-muted-foreground">
            Cancelled
          </Badge>
        )}
      </div>
      <SessionWhen session={session} />
      {session.providerSync === 'pending' && (
        <div role="note" className="flex gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950" data-testid="provider-pending">
          <Clock aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          <p className="min-w-0 [overflow-wrap:anywhere]">
            <span className="font-medium">{pendingMessage(cancelled ? 'delete' : 'update', providerName(session.provider), joinWindow(session).endsAt + RETRIES_STOP_AFTER_END_MS <= Date.now())}</span>
            {session.providerError && <span className="block">{session.providerError}</span>}
          </p>
        </div>
      )}
      {!cancelled && onCancel && (
        <div className="flex flex-wrap gap-2">
          <Button asChild size="sm">
            <a href={session.hostUrl} target="_blank" rel="noopener noreferrer" aria-label={`Start meeting: ${session.title} (opens in a new tab)`}>
              <ExternalLink aria-hidden="true" />
              Start meeting
            </a>
          </Button>
          <Button variant="outline" size="sm" aria-label={`Copy the join link of ${session.title}`} onClick={() => void copy()}>
            <Copy aria-hidden="true" />
            Copy join link
          </Button>
          {!readOnly && (
            <Button variant="outline" size="sm" aria-label={`Change ${session.title}`} onClick={onChange}>
              <Pencil aria-hidden="true" />
              Change
            </Button>
          )}
          <Button variant="ghost" size="sm" className="text-destructive hover:text-destructive" aria-label={`Cancel ${session.title}`} onClick={onCancel}>
            <XCircle aria-hidden="true" />
            Cancel
          </Button>
        </div>
      )}
    </li>
  );
}

function SessionDialog({
  courseId,
  dialog,
  connected,
  onClose,
}: {
  courseId: string;
  dialog: { mode: 'schedule' } | { mode: 'change'; session: LiveSession } | undefined;
  connected: IntegrationProvider[];
  onClose: () => void;
}) {
  const schedule = useScheduleSession(courseId);
  const change = useRescheduleSession(courseId);
  const changing = dialog?.mode === 'change' ? dialog.session : undefined;
  return (
    <FormDialog
      open={dialog !== undefined}
      onOpenChange={(open) => !open && onClose()}
      busy={schedule.isPending || change.isPending}
      title={changing ? 'Change session' : 'Schedule session'}
      description={
        changing
          ? `The meeting in ${providerName(changing.provider)} is changed too.`
          : 'The meeting is made in the tool you choose; enrolled learners see the session on their dashboard.'
      }
    >
      {(cancel) => <SessionForm session={changing} connected={connected} schedule={schedule} change={change} onCancel={cancel} onDone={onClose} />}
    </FormDialog>
  );
}

interface Form {
  title: string;
  date: string;
  time: string;
  durationMinutes: string;
  provider: string;
  description: string;
}
type Field = keyof Form;
type Errors = Partial<Record<Field, string>>;

const pad = (n: number) => String(n).padStart(2, '0');
/** An instant as a date input's and a time input's values, in the viewer's zone. */
const localParts = (iso: string): { date: string; time: string } => {
  const at = new Date(iso);
  return { date: `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`, time: `${pad(at.getHours())}:${pad(at.getMinutes())}` };
};
/** A local day and time of day as the instant they name in the viewer's zone (undefined when either is missing). */
const instantOf = (date: string, time: string): Date | undefined => {
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const clock = /^(\d{2}):(\d{2})/.exec(time);
  if (!day || !clock) return undefined;
  const at = new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3]), Number(clock[1]), Number(clock[2]));
  return Number.isNaN(at.getTime()) ? undefined : at;
};

/** The field a 400's details name (`[{path, message}]`): startsAt lands on the date. */
const fieldOf = (path: unknown): Field | undefined => {
  const head = Array.isArray(path) ? String(path[0]) : String(path);
  if (head === 'startsAt' || head === 'timeZone') return 'date';
  return (['title', 'durationMinutes', 'provider', 'description'] as const).find((f) => f === head);
};

function SessionForm({
  session,
  connected,
  schedule,
  change,
  onCancel,
  onDone,
}: {
  session: LiveSession | undefined;
  connected: IntegrationProvider[];
  schedule: ReturnType<typeof useScheduleSession>;
  change: ReturnType<typeof useRescheduleSession>;
  onCancel: () => void;
  onDone: () => void;
}) {
  // One key per opening of the dialog: a retry from the same dialog (after a timeout) makes one meeting, not two.
  const [idempotencyKey] = useState(newIdempotencyKey);
  const [form, setForm] = useState<Form>(() => ({
    title: session?.title ?? '',
    ...(session ? localParts(session.startsAt) : { date: '', time: '18:00' }),
    durationMinutes: String(session?.durationMinutes ?? 60),
    provider: session?.provider ?? connected[0] ?? '',
    description: session?.description ?? '',
  }));
  const [errors, setErrors] = useState<Errors>({});
  const [refusal, setRefusal] = useState<string>();
  const busy = schedule.isPending || change.isPending;
  const set = (field: Field) => (event: { target: { value: string } }) => setForm((f) => ({ ...f, [field]: event.target.value }));
  const durations = session && !SESSION_DURATIONS.includes(session.durationMinutes) ? [...SESSION_DURATIONS, session.durationMinutes].sort((a, b) => a - b) : SESSION_DURATIONS;

  const onError = (error: Error) => {
    if (error instanceof ApiError && error.code === 'VALIDATION_FAILED' && Array.isArray(error.details)) {
      const found: Errors = {};
      for (const detail of error.details as { path?: unknown; message?: unknown }[]) {
        const field = fieldOf(detail.path);
        if (field) found[field] ??= typeof detail.message === 'string' ? detail.message : error.message;
      }
      if (Object.keys(found).length > 0) {
        setErrors(found);
        return;
      }
    }
    // 409 INTEGRATION_NOT_CONNECTED and 502 UPSTREAM_FAILED carry the provider's name and the reason in words.
    setRefusal(errorMessage(error, courseMessages.failed));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setRefusal(undefined);
    const found: Errors = {};
    const startsAt = instantOf(form.date, form.time);
    if (!startsAt) found.date = 'Pick the day and the time of the session.';
    else if (startsAt.getTime() <= Date.now()) found.date = 'Pick a time that is still ahead.';
    const body = {
      title: form.title.trim(),
      startsAt: startsAt?.toISOString() ?? '',
      durationMinutes: Number(form.durationMinutes),
      provider: form.provider,
      ...(form.description.trim() === '' ? {} : { description: form.description.trim() }),
      timeZone: browserZone(),
    };
    const parsed = scheduleSessionBody.safeParse(body);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = fieldOf(issue.path);
        if (field && !(field === 'provider' && session)) found[field] ??= field === 'provider' ? 'Choose a connected tool.' : issue.message;
      }
    }
    setErrors(found);
    if (Object.keys(found).length > 0 || !parsed.success) return;

    if (session) {
      const patch: UpdateSessionBody = { title: parsed.data.title, startsAt: parsed.data.startsAt, durationMinutes: parsed.data.durationMinutes, timeZone: browserZone() };
      change.mutate(
        { sessionId: session.id, body: patch },
        {
          onSuccess: (saved) => {
            const text = saved.providerSync === 'pending' ? sessionMessages.rescheduledPending(saved.title, providerName(saved.provider)) : sessionMessages.rescheduled(saved.title);
            toast.success(text.title, { description: text.description });
            onDone();
          },
          onError,
        },
      );
    } else {
      schedule.mutate(
        { body: parsed.data, idempotencyKey },
        {
          onSuccess: (saved) => {
            const text = sessionMessages.scheduled(saved.title, providerName(saved.provider));
            toast.success(text.title, { description: text.description });
            onDone();
          },
          onError,
        },
      );
    }
  };

  return (
    <form noValidate aria-label={session ? 'Change session' : 'Schedule session'} className="grid gap-5" onSubmit={submit}>
      <FormField label="Title" error={errors.title} required>
        <Input value={form.title} onChange={set('title')} required maxLength={SESSION_TITLE_MAX} autoComplete="off" placeholder="Live Q&A" />
      </FormField>
      <div className="grid gap-5 sm:grid-cols-2">
        <FormField className="content-start" label="Date" error={errors.date} required>
          <Input type="date" value={form.date} onChange={set('date')} required />
        </FormField>
        <FormField className="content-start" label="Time" description={`Your time zone: ${browserZone()}.`} required>
          <Input type="time" value={form.time} onChange={set('time')} required step={300} />
        </FormField>
      </div>
      <div className="grid gap-5 sm:grid-cols-2">
        <FormField className="content-start" label="Duration" error={errors.durationMinutes} required>
          <select className={selectClass} value={form.durationMinutes} onChange={set('durationMinutes')}>
            {durations.map((minutes) => (
              <option key={minutes} value={minutes}>
                {formatDuration(minutes)}
              </option>
            ))}
          </select>
        </FormField>
        <FormField
          className="content-start"
          label="Meeting tool"
          error={errors.provider}
          description={session ? 'A session stays in the tool it was made in.' : 'Only the tools you have connected.'}
          required
        >
          <select className={selectClass} value={form.provider} onChange={set('provider')} disabled={session !== undefined}>
            {(session ? [session.provider] : connected).map((provider) => (
              <option key={provider} value={provider}>
                {providerName(provider)}
              </option>
            ))}
          </select>
        </FormField>
      </div>
      {!session && (
        <FormField label="Description" error={errors.description} description="Optional: what the session is about.">
          <Textarea value={form.description} onChange={set('description')} maxLength={SESSION_DESCRIPTION_MAX} rows={3} />
        </FormField>
      )}

      {refusal && (
        <RefusalAlert>{refusal}</RefusalAlert>
      )}

      <DialogFooter>
        <Button variant="outline" disabled={busy} onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" loading={busy}>
          {session ? (busy ? 'Saving...' : 'Save changes') : busy ? 'Scheduling...' : 'Schedule session'}
        </Button>
      </DialogFooter>
    </form>
  );
}
