import type { UseMutationResult } from '@tanstack/react-query';
import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import type * as z from 'zod';
import { Button } from '@/components/ui/button.tsx';
import { DialogFooter } from '@/components/ui/dialog.tsx';
import { FormDialog } from '@/components/ui/form-dialog.tsx';
import { RefusalAlert } from '@/components/ui/refusal-alert.tsx';
import { toast } from '@/components/ui/toaster.tsx';
import { errorMessage } from '@/lib/error-message.ts';
import { planRequiredBy } from '@/lib/plan-required.ts';
import { ShownOnce } from './shown-once.tsx';

/** The words of a create-once dialog (an API key, a webhook endpoint's secret). */
export interface CreateOnceWords {
  readonly form: { readonly title: string; readonly description: string; readonly submit: string; readonly failed: string };
  readonly created: { readonly title: string; readonly description: string; readonly field: string; readonly copy: string; readonly done: string };
}

/**
 * A dialog that creates something whose secret is shown this once (an API key, a webhook endpoint's signing secret):
 * its form first (`children`, given how to cancel and what to call with the answer), then the secret, read-only with
 * Copy, and Done. Closing it forgets the secret and only then toasts `announce`: the dialog fills a phone's screen and
 * the toasts sit at the top, so a toast raised while the secret is shown would cover the dialog's title.
 */
export function CreateOnceDialog<Created>({
  open,
  onOpenChange,
  busy,
  words,
  secretOf,
  announce,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  busy: boolean;
  words: CreateOnceWords;
  secretOf: (created: Created) => string;
  /** The success toast, once the secret has been shown and the dialog closes. */
  announce: (created: Created) => { title: string; description: string };
  children: (cancel: () => void, onCreated: (created: Created) => void) => ReactNode;
}) {
  const [created, setCreated] = useState<Created>();
  const change = (next: boolean) => {
    onOpenChange(next);
    if (next || !created) return;
    const { title, description } = announce(created);
    toast.success(title, { description });
    setCreated(undefined);
  };
  return (
    <FormDialog
      open={open}
      onOpenChange={change}
      busy={busy}
      title={created ? words.created.title : words.form.title}
      description={created ? words.created.description : words.form.description}
    >
      {(cancel) =>
        created ? (
          <div className="grid gap-5">
            <ShownOnce label={words.created.field} copyLabel={words.created.copy} value={secretOf(created)} />
            <DialogFooter>
              <Button onClick={cancel}>{words.created.done}</Button>
            </DialogFooter>
          </div>
        ) : (
          children(cancel, setCreated)
        )
      }
    </FormDialog>
  );
}

/**
 * The submit of a create-once form: the values checked with the contract's schema (each field's first problem, the
 * first input focused when it has one), then the mutation; a 403 PLAN_REQUIRED goes to `onPlanRequired`, any other
 * refusal is shown in the form.
 */
export function useCreateOnceForm<Body, Created, Field extends string>({
  schema,
  fieldOf,
  focusField,
  create,
  failed,
  planReason,
  onCreated,
  onPlanRequired,
}: {
  schema: z.ZodType<Body>;
  /** The field a problem belongs to, from the first element of its path. */
  fieldOf: (path0: PropertyKey | undefined) => Field;
  /** The field of the first input (focused when it has a problem). */
  focusField: Field;
  create: UseMutationResult<Created, Error, Body>;
  failed: string;
  planReason: string;
  onCreated: (created: Created) => void;
  onPlanRequired: (reason: string) => void;
}) {
  const [problems, setProblems] = useState<Partial<Record<Field, string>>>({});
  const [refusal, setRefusal] = useState<string>();
  const firstInput = useRef<HTMLInputElement>(null);
  const submit = (values: unknown) => (event: FormEvent) => {
    event.preventDefault();
    setRefusal(undefined);
    const parsed = schema.safeParse(values);
    if (!parsed.success) {
      const found: Partial<Record<Field, string>> = {};
      for (const issue of parsed.error.issues) found[fieldOf(issue.path[0])] ??= issue.message;
      setProblems(found);
      if (found[focusField]) firstInput.current?.focus();
      return;
    }
    setProblems({});
    create.mutate(parsed.data, {
      onSuccess: onCreated,
      onError: (error) => {
        if (planRequiredBy(error)) onPlanRequired(errorMessage(error, planReason));
        else setRefusal(errorMessage(error, failed));
      },
    });
  };
  return { problems, refusal, firstInput, submit };
}

/** The end of a create-once form: the server's refusal if any, then Cancel and the submit button. */
export function CreateOnceFooter({ refusal, busy, submit, onCancel }: { refusal: string | undefined; busy: boolean; submit: string; onCancel: () => void }) {
  return (
    <>
      {refusal && <RefusalAlert>{refusal}</RefusalAlert>}
      <DialogFooter>
        <Button variant="outline" disabled={busy} onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" loading={busy}>
          {submit}
        </Button>
      </DialogFooter>
    </>
  );
}
