import { Send } from 'lucide-react';
import { useRef, useState, type FormEvent } from 'react';
import { createSupportRequestBody, SUPPORT_BODY_MAX, SUPPORT_SUBJECT_MAX } from '@contracts/support.ts';
import { Button } from '@/components/ui/button.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Textarea } from '@/components/ui/textarea.tsx';
import { toast } from '@/components/ui/toaster.tsx';
import { errorMessage } from '@/lib/error-message.ts';
import { newIdempotencyKey } from '@/lib/idempotency-key.ts';
import { useCreateSupportRequest } from '../api/support-queries.ts';
import { supportMessages } from '../support-messages.ts';

const m = supportMessages.creator.form;
type Field = 'subject' | 'body';

/**
 * 'Ask for help': subject and message, checked with the contract's own rules (and its sentences) before sending; one
 * Idempotency-Key per request, kept across retries of the same send, so a retry never opens a second request.
 */
export function SupportRequestForm() {
  const create = useCreateSupportRequest();
  const [subject, setSubject] = useState('');
  const [body, setBody] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [failure, setFailure] = useState<string>();
  const [key, setKey] = useState(newIdempotencyKey);
  const subjectRef = useRef<HTMLInputElement>(null);
  const bodyRef = useRef<HTMLTextAreaElement>(null);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFailure(undefined);
    const parsed = createSupportRequestBody.safeParse({ subject, body });
    if (!parsed.success) {
      const found: Partial<Record<Field, string>> = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        if (field === 'subject' || field === 'body') found[field] ??= issue.message;
      }
      setErrors(found);
      (found.subject ? subjectRef.current : bodyRef.current)?.focus();
      return;
    }
    setErrors({});
    create.mutate(
      { body: parsed.data, key },
      {
        onSuccess: () => {
          toast.success(m.sent, { description: m.sentDescription });
          setSubject('');
          setBody('');
          setKey(newIdempotencyKey());
        },
        onError: (error) => setFailure(errorMessage(error, m.failed)),
      },
    );
  };

  return (
    <form noValidate aria-label={m.title} className="grid gap-5" onSubmit={submit}>
      <FormField label={m.subject} error={errors.subject} description={m.subjectHint} required>
        <Input
          ref={subjectRef}
          value={subject}
          onChange={(event) => setSubject(event.target.value)}
          maxLength={SUPPORT_SUBJECT_MAX}
          required
          autoComplete="off"
          placeholder="For example: a late payout"
        />
      </FormField>
      <FormField label={m.message} error={errors.body} description={m.messageHint} required>
        <Textarea ref={bodyRef} value={body} onChange={(event) => setBody(event.target.value)} maxLength={SUPPORT_BODY_MAX} required rows={6} />
      </FormField>
      {failure && (
        <p role="alert" className="rounded-lg border border-destructive/40 bg-destructive/5 p-3 text-sm text-destructive">
          {failure}
        </p>
      )}
      <Button type="submit" className="justify-self-start max-sm:w-full" loading={create.isPending}>
        {!create.isPending && <Send aria-hidden="true" />}
        {m.submit}
      </Button>
    </form>
  );
}
