import { useQuery } from '@tanstack/react-query';
import { MailPlus, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import {
  fillPlaceholders,
  samplePlaceholders,
  sequenceTriggerKinds,
  sequenceTriggerLabels,
  type CreateSequenceBody,
  type SequenceTriggerKind,
  type SequenceView,
} from '@contracts/sequences.ts';
import { markdownToHtml } from '@contracts/markdown.ts';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { FormDialog } from '@/components/ui/form-dialog.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { LoadFailed } from '@/components/ui/load-failed.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { TableSkeleton } from '@/components/ui/skeleton.tsx';
import { Switch } from '@/components/ui/switch.tsx';
import { Textarea } from '@/components/ui/textarea.tsx';
import { toast } from '@/components/ui/toaster.tsx';
import { courseChoicesQueryOptions } from '@/lib/course-choices.ts';
import { errorMessage } from '@/lib/error-message.ts';
import { sequencesQueryOptions, sequenceStatsQueryOptions, useDeleteSequence, useSaveSequence } from '../sequences-queries.ts';

/**
 * /dashboard/creator/sequences (Marketing, issue 33): the creator's email sequences. Each card shows its trigger, its
 * steps with what each sent, its on/off switch, Edit and Delete (behind a confirmation); 'New sequence' opens the editor,
 * whose preview fills the placeholders with a sample learner.
 */
export function SequencesScreen() {
  const sequences = useQuery(sequencesQueryOptions());
  const [editing, setEditing] = useState<SequenceView | 'new'>();
  const [deleting, setDeleting] = useState<SequenceView>();
  const remove = useDeleteSequence();
  const items = sequences.data?.items ?? [];
  return (
    <div className="grid gap-6 *:min-w-0">
      <PageHeader
        title="Sequences"
        description="Emails that go by themselves after a learner enrols, completes a course, or stops for some days."
        actions={
          <Button onClick={() => setEditing('new')}>
            <Plus aria-hidden="true" />
            New sequence
          </Button>
        }
      />
      {sequences.isPending ? (
        <TableSkeleton label="Loading sequences" />
      ) : sequences.isError ? (
        <LoadFailed message="Your sequences could not be loaded." onRetry={() => void sequences.refetch()} retrying={sequences.isRefetching} />
      ) : items.length === 0 ? (
        <EmptyState icon={MailPlus} title="No sequences yet">
          Welcome new learners, congratulate those who finish, and bring back those who stall: create your first sequence.
        </EmptyState>
      ) : (
        <ul className="grid gap-4" aria-label="Sequences">
          {items.map((s) => (
            <li key={s.id}>
              <SequenceCard sequence={s} onEdit={() => setEditing(s)} onDelete={() => setDeleting(s)} />
            </li>
          ))}
        </ul>
      )}
      <SequenceDialog sequence={editing} onDone={() => setEditing(undefined)} />
      <ConfirmDialog
        open={deleting !== undefined}
        onOpenChange={(open) => !open && setDeleting(undefined)}
        title={`Delete “${deleting?.name ?? ''}”?`}
        action="Delete sequence"
        busy={remove.isPending}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: () => (toast.success('Sequence deleted.'), setDeleting(undefined)),
            onError: (error) => toast.error(errorMessage(error)),
          })
        }
      >
        Learners in it get none of its remaining emails. Its statistics go with it.
      </ConfirmDialog>
    </div>
  );
}

function triggerText(s: SequenceView, courseTitle: (id: string) => string): string {
  const course = s.trigger.courseId ? `“${courseTitle(s.trigger.courseId)}”` : 'any course';
  if (s.trigger.kind === 'enrolled') return `When a learner enrols in ${course}`;
  if (s.trigger.kind === 'completed') return `When a learner completes ${course}`;
  return `When a learner of ${course} has been inactive for ${s.trigger.days ?? 0} days`;
}

function SequenceCard({ sequence: s, onEdit, onDelete }: { sequence: SequenceView; onEdit: () => void; onDelete: () => void }) {
  const stats = useQuery(sequenceStatsQueryOptions(s.id));
  const courses = useQuery(courseChoicesQueryOptions());
  const save = useSaveSequence();
  const titleOf = (id: string) => courses.data?.items.find((c) => c.id === id)?.title ?? 'a course';
  const switchId = `sequence-active-${s.id}`;
  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <CardTitle asLevel={2} className="break-words">
            {s.name}
          </CardTitle>
          <p className="text-sm text-muted-foreground">{triggerText(s, titleOf)}</p>
        </div>
        <div className="flex items-center gap-2">
          <Switch
            id={switchId}
            checked={s.active}
            disabled={save.isPending}
            onCheckedChange={(active) => save.mutate({ id: s.id, body: { active } }, { onError: (error) => toast.error(errorMessage(error)) })}
          />
          <Label htmlFor={switchId}>{s.active ? 'On' : 'Off'}</Label>
        </div>
      </CardHeader>
      <CardContent className="grid gap-3">
        <ol className="grid gap-1 text-sm">
          {s.steps.map((step, i) => (
            <li key={i} className="flex flex-wrap justify-between gap-2 border-b py-1 last:border-0">
              <span className="min-w-0 break-words">
                <span className="text-muted-foreground">{i === 0 ? `Day ${step.delayDays}` : `+${step.delayDays} days`} · </span>
                {step.subject}
              </span>
              <span className="text-muted-foreground">{stats.data ? `${stats.data.sent[i] ?? 0} sent` : stats.isError ? '' : '…'}</span>
            </li>
          ))}
        </ol>
        <p className="text-sm text-muted-foreground" aria-live="polite">
          {stats.isError ? 'Statistics could not be loaded.' : stats.data ? `${stats.data.entered} entered · ${stats.data.unsubscribed} unsubscribed` : 'Loading statistics…'}
        </p>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" onClick={onEdit}>
            Edit
          </Button>
          <Button variant="outline" onClick={onDelete}>
            <Trash2 aria-hidden="true" />
            Delete
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}

const emptyStep = { delayDays: 0, subject: 'Welcome to {{courseTitle}}', body: 'Hello {{learnerName}},\n\nWelcome to **{{courseTitle}}**.' };

function SequenceDialog({ sequence, onDone }: { sequence: SequenceView | 'new' | undefined; onDone: () => void }) {
  const save = useSaveSequence();
  return (
    <FormDialog
      open={sequence !== undefined}
      onOpenChange={(open) => !open && onDone()}
      busy={save.isPending}
      title={sequence === 'new' ? 'New sequence' : 'Edit sequence'}
      description="Use {{learnerName}} and {{courseTitle}} in a subject or an email; the preview shows a sample learner."
      className="sm:max-w-2xl"
    >
      {(cancel) => <SequenceForm initial={sequence === 'new' ? undefined : sequence} busy={save.isPending} cancel={cancel} onSubmit={(id, body) => save.mutate({ ...(id ? { id } : {}), body }, { onSuccess: () => (toast.success('Sequence saved.'), onDone()), onError: (error) => toast.error(errorMessage(error)) })} />}
    </FormDialog>
  );
}

const fieldClass = 'grid gap-1.5';
const selectClass = 'h-9 w-full rounded-md border bg-background px-3 text-sm';

function SequenceForm({ initial, busy, cancel, onSubmit }: { initial: SequenceView | undefined; busy: boolean; cancel: () => void; onSubmit: (id: string | undefined, body: CreateSequenceBody) => void }) {
  const courses = useQuery(courseChoicesQueryOptions());
  const [name, setName] = useState(initial?.name ?? '');
  const [kind, setKind] = useState<SequenceTriggerKind>(initial?.trigger.kind ?? 'enrolled');
  const [courseId, setCourseId] = useState(initial?.trigger.courseId ?? '');
  const [days, setDays] = useState(initial?.trigger.days ?? 7);
  const [steps, setSteps] = useState(initial?.steps ?? [emptyStep]);
  const [previewing, setPreviewing] = useState(0);
  const change = (i: number, patch: Partial<(typeof steps)[number]>) => setSteps(steps.map((s, n) => (n === i ? { ...s, ...patch } : s)));
  const shown = steps[Math.min(previewing, steps.length - 1)];
  const chosenCourse = courses.data?.items.find((c) => c.id === courseId)?.title;
  const sample = chosenCourse ? { ...samplePlaceholders, courseTitle: chosenCourse } : samplePlaceholders;
  return (
    <form
      className="grid gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit(initial?.id, { name, trigger: { kind, courseId: courseId || null, ...(kind === 'inactive' ? { days } : {}) }, steps, active: initial?.active ?? true });
      }}
    >
      <div className={fieldClass}>
        <Label htmlFor="sequence-name">Name</Label>
        <Input id="sequence-name" required maxLength={120} value={name} onChange={(e) => setName(e.target.value)} />
      </div>
      <div className="grid gap-4 sm:grid-cols-3">
        <div className={fieldClass}>
          <Label htmlFor="sequence-trigger">Trigger</Label>
          <select id="sequence-trigger" className={selectClass} value={kind} onChange={(e) => setKind(e.target.value as SequenceTriggerKind)}>
            {sequenceTriggerKinds.map((k) => (
              <option key={k} value={k}>
                {sequenceTriggerLabels[k]}
              </option>
            ))}
          </select>
        </div>
        <div className={fieldClass}>
          <Label htmlFor="sequence-course">Course</Label>
          <select id="sequence-course" className={selectClass} value={courseId} onChange={(e) => setCourseId(e.target.value)}>
            <option value="">Any course</option>
            {courses.data?.items.map((c) => (
              <option key={c.id} value={c.id}>
                {c.title}
              </option>
            ))}
          </select>
        </div>
        {kind === 'inactive' && (
          <div className={fieldClass}>
            <Label htmlFor="sequence-days">Days without activity</Label>
            <Input id="sequence-days" type="number" min={3} max={90} required value={days} onChange={(e) => setDays(Number(e.target.value))} />
          </div>
        )}
      </div>
      <fieldset className="grid gap-4">
        <legend className="mb-2 text-sm font-medium">Emails</legend>
        {steps.map((step, i) => (
          <div key={i} className="grid gap-3 rounded-lg border p-3">
            <div className="flex flex-wrap items-end gap-3">
              <div className={`${fieldClass} w-36`}>
                <Label htmlFor={`step-delay-${i}`}>{i === 0 ? 'Days after trigger' : 'Days after previous'}</Label>
                <Input id={`step-delay-${i}`} type="number" min={0} max={365} required value={step.delayDays} onChange={(e) => change(i, { delayDays: Number(e.target.value) })} />
              </div>
              <Button type="button" variant="outline" onClick={() => setPreviewing(i)}>
                Preview email {i + 1}
              </Button>
              {steps.length > 1 && (
                <Button type="button" variant="ghost" onClick={() => setSteps(steps.filter((_, n) => n !== i))}>
                  Remove email {i + 1}
                </Button>
              )}
            </div>
            <div className={fieldClass}>
              <Label htmlFor={`step-subject-${i}`}>Subject of email {i + 1}</Label>
              <Input id={`step-subject-${i}`} required maxLength={200} value={step.subject} onChange={(e) => change(i, { subject: e.target.value })} />
            </div>
            <div className={fieldClass}>
              <Label htmlFor={`step-body-${i}`}>Email {i + 1} (Markdown)</Label>
              <Textarea id={`step-body-${i}`} required rows={5} value={step.body} onChange={(e) => change(i, { body: e.target.value })} />
            </div>
          </div>
        ))}
        {steps.length < 20 && (
          <Button type="button" variant="outline" className="justify-self-start" onClick={() => setSteps([...steps, { ...emptyStep, delayDays: 3, subject: '', body: '' }])}>
            <Plus aria-hidden="true" />
            Add email
          </Button>
        )}
      </fieldset>
      {shown && (
        // The sample learner, in the chosen course when there is one.
        <section aria-label="Preview" className="grid gap-2 rounded-lg border bg-muted/40 p-3">
          <p className="text-sm font-medium break-words">Subject: {fillPlaceholders(shown.subject, sample)}</p>
          {/* The contract's renderer escapes everything the creator typed; the server sanitizes again when it sends. */}
          <div className="prose prose-sm max-w-none break-words" dangerouslySetInnerHTML={{ __html: markdownToHtml(fillPlaceholders(shown.body, sample)) }} />
        </section>
      )}
      <div className="flex flex-wrap justify-end gap-2">
        <Button type="button" variant="outline" onClick={cancel} disabled={busy}>
          Cancel
        </Button>
        <Button type="submit" loading={busy}>
          Save sequence
        </Button>
      </div>
    </form>
  );
}
