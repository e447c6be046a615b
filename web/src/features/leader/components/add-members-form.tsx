import { useInfiniteQuery } from '@tanstack/react-query';
import { CircleCheck, CircleMinus, CircleX, FileSpreadsheet, UserPlus } from 'lucide-react';
import { useId, useMemo, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import type { License } from '@contracts/licenses.ts';
import { PlanRequiredNote } from '@/components/plan-gate.tsx';
import { Button, buttonVariants } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { Textarea } from '@/components/ui/textarea.tsx';
import { toast } from '@/components/ui/toaster.tsx';
import { ApiError } from '@/lib/api-error.ts';
import { errorMessage } from '@/lib/error-message.ts';
import { cn } from '@/lib/utils.ts';
import { membersQueryOptions, useAddMembers } from '../api/leader-queries.ts';
import { leaderMessages as m } from '../leader-messages.ts';
import { emailsInCsv, failed, planRows, rowResults, splitEmails, summary, type RowOutcome, type RowResult } from '../member-emails.ts';

const outcomeText = (outcome: RowOutcome): string => {
  switch (outcome.kind) {
    case 'added':
      return m.outcome.added;
    case 'member':
      return m.outcome.member;
    case 'duplicate':
      return m.outcome.duplicate;
    case 'invalid':
      return m.outcome.invalid;
    case 'no-seats':
      return m.outcome.noSeats;
    case 'refused':
      return outcome.message;
  }
};

/**
 * 'Add members': emails pasted (one or many, separated by commas, spaces or new lines) or taken from a CSV file
 * (read in the browser): one email through the single-seat route, several through the import route 25 at a time with
 * 'Adding 25 of 60...'. Rows that are not emails, repeats
 * and people already holding a seat are settled before any request; afterwards each row says what became of it,
 * and a toast sums it up. On a licence whose creator is not on Pro (`bulkMembers` false) the CSV import and several
 * emails at once are refused with the reason (issue 29): one email at a time works on every licence.
 */
export function AddMembersForm({ license }: { license: License }) {
  // The members loaded so far (the group's list shares them): a seat held beyond them is answered again by the server, never taken twice.
  const members = useInfiniteQuery(membersQueryOptions(license.id));
  const add = useAddMembers(license.id);
  const [text, setText] = useState('');
  const [error, setError] = useState<string>();
  const [fileNote, setFileNote] = useState<string>();
  const [progress, setProgress] = useState<{ done: number; total: number }>();
  const [results, setResults] = useState<RowResult[]>();
  // The server's PLAN_REQUIRED refusal of an import (the list said nothing, or the creator's plan changed since).
  const [lockReason, setLockReason] = useState<string>();
  const textareaRef = useRef<HTMLTextAreaElement>(null);
  const fileId = useId();
  const activeMembers = useMemo(
    () => new Set(members.data?.pages.flatMap((page) => page.items).filter((member) => member.status === 'active').map((member) => member.email.toLowerCase())),
    [members.data],
  );
  const busy = add.isPending;
  const bulk = license.bulkMembers !== false && lockReason === undefined;

  const readFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    const file = input.files?.[0];
    // Cleared, so choosing the same file again (after fixing it) reads it again.
    input.value = '';
    if (!file) return;
    try {
      const found = emailsInCsv(await file.text());
      if (found.length > 0) {
        setText((was) => [was.trimEnd(), found.join('\n')].filter(Boolean).join('\n'));
        setError(undefined);
      }
      setFileNote(m.add.found(found.length, file.name));
    } catch {
      setFileNote(m.add.unreadable(file.name));
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const rows = splitEmails(text);
    if (rows.length === 0) {
      setError(m.add.nothing);
      textareaRef.current?.focus();
      return;
    }
    if (!bulk && rows.length > 1) {
      setError(m.add.severalLocked);
      textareaRef.current?.focus();
      return;
    }
    setError(undefined);
    setFileNote(undefined);
    const { planned, toSend } = planRows(rows, activeMembers);
    const finish = (done: RowResult[]) => {
      setProgress(undefined);
      setResults(done);
      setText('');
      const line = summary(done);
      if (done.some((row) => failed(row.outcome))) toast.error(line, { description: m.add.failedHint });
      else toast.success(line);
    };
    if (toSend.length === 0) {
      finish(rowResults(planned, []));
      return;
    }
    setResults(undefined);
    setProgress({ done: 0, total: toSend.length });
    add.mutate(
      { emails: toSend, onProgress: (done) => setProgress({ done, total: toSend.length }) },
      {
        onSuccess: (outcomes) => finish(rowResults(planned, outcomes)),
        onError: (failure) => {
          setProgress(undefined);
          if (failure instanceof ApiError && failure.code === 'PLAN_REQUIRED') setLockReason(failure.message);
          else toast.error(errorMessage(failure));
        },
      },
    );
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>{m.add.title}</CardTitle>
        <CardDescription>{m.add.description}</CardDescription>
      </CardHeader>
      <CardContent>
        <form noValidate onSubmit={submit} className="grid gap-4" aria-label={m.add.title}>
          <FormField label={m.add.emails} description={bulk ? m.add.emailsHint : m.add.oneAtATime} error={error}>
            <Textarea
              ref={textareaRef}
              rows={4}
              value={text}
              disabled={busy}
              placeholder={bulk ? 'ann@example.com, bo@example.com\ncleo@example.com' : 'ann@example.com'}
              spellCheck={false}
              autoCapitalize="none"
              onChange={(event) => {
                setText(event.target.value);
                if (error) setError(undefined);
              }}
            />
          </FormField>
          {!bulk && <PlanRequiredNote plan="pro" reason={lockReason ?? m.add.bulkLocked} upgradable={false} announce={lockReason !== undefined} />}
          {bulk && (
          <div className="grid gap-2">
            <div className="flex flex-wrap items-center gap-3">
              <input id={fileId} type="file" accept=".csv,text/csv,text/plain" className="peer sr-only" disabled={busy} onChange={(event) => void readFile(event)} />
              <label
                htmlFor={fileId}
                className={cn(
                  buttonVariants({ variant: 'outline' }),
                  'cursor-pointer peer-focus-visible:ring-2 peer-focus-visible:ring-ring peer-focus-visible:ring-offset-2 peer-disabled:pointer-events-none peer-disabled:opacity-60',
                )}
              >
                <FileSpreadsheet aria-hidden="true" />
                {m.add.csv}
              </label>
              <span className="min-w-0 text-sm text-muted-foreground">{m.add.csvHint}</span>
            </div>
            {fileNote && (
              <p role="status" className="text-sm [overflow-wrap:anywhere]">
                {fileNote}
              </p>
            )}
          </div>
          )}
          <div className="flex flex-wrap items-center gap-3">
            <Button type="submit" loading={busy} className="max-sm:w-full">
              {!busy && <UserPlus aria-hidden="true" />}
              {m.add.submit}
            </Button>
            <p role="status" className="text-sm tabular-nums text-muted-foreground">
              {progress && m.add.progress(progress.done, progress.total)}
            </p>
          </div>
        </form>
        {results && <Results results={results} />}
      </CardContent>
    </Card>
  );
}

function Results({ results }: { results: RowResult[] }) {
  return (
    <ul aria-label={m.add.results} className="mt-4 divide-y rounded-lg border">
      {results.map((row, index) => {
        const kind = row.outcome.kind;
        const Icon = kind === 'added' ? CircleCheck : failed(row.outcome) ? CircleX : CircleMinus;
        return (
          <li key={`${index}-${row.text}`} className="flex flex-wrap items-start justify-between gap-x-4 gap-y-1 px-3 py-2 text-sm">
            <span className="min-w-0 font-medium [overflow-wrap:anywhere]">{row.text}</span>
            <span
              className={cn(
                'flex min-w-0 items-start gap-1.5',
                kind === 'added' ? 'text-emerald-700' : failed(row.outcome) ? 'text-destructive' : 'text-muted-foreground',
              )}
            >
              <Icon aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
              <span className="[overflow-wrap:anywhere]">{outcomeText(row.outcome)}</span>
            </span>
          </li>
        );
      })}
    </ul>
  );
}
