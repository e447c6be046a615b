import { useRef, useState, type FormEvent } from 'react';
import { supportFollowUpBody, SUPPORT_BODY_MAX, type SupportRequest } from '@contracts/support.ts';
import { Button } from '@/components/ui/button.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { Textarea } from '@/components/ui/textarea.tsx';
import { toast } from '@/components/ui/toaster.tsx';
import { errorMessage } from '@/lib/error-message.ts';
import { newIdempotencyKey } from '@/lib/idempotency-key.ts';
import { useFollowUpSupportRequest } from '../api/support-queries.ts';
import { supportMessages } from '../support-messages.ts';

const m = supportMessages.creator.followUp;

/** The creator's own message on one of their open requests ('You' in the thread); checked with the contract first. */
export function FollowUpForm({ request }: { request: SupportRequest }) {
  const followUp = useFollowUpSupportRequest();
  const [body, setBody] = useState('');
  const [error, setError] = useState<string>();
  const [failure, setFailure] = useState<string>();
  // One key per message, kept while its send is retried; a changed text is another message.
  const [key, setKey] = useState(newIdempotencyKey);
  const field = useRef<HTMLTextAreaElement>(null);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFailure(undefined);
    const parsed = supportFollowUpBody.safeParse({ body });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      field.current?.focus();
      return;
    }
    setError(undefined);
    followUp.mutate(
      { requestId: request.id, body: parsed.data, key },
      {
        onSuccess: () => {
          toast.success(m.added);
          setBody('');
          setKey(newIdempotencyKey());
        },
        onError: (err) => setFailure(errorMessage(err, m.failed)),
      },
    );
  };

  return (
    <form noValidate aria-label={`${m.label}: ${request.subject}`} className="grid gap-3 border-t pt-3" onSubmit={submit}>
      <FormField label={m.label} error={error} description={m.hint}>
        <Textarea ref={field} value={body} onChange={(event) => {
            setBody(event.target.value);
            setKey(newIdempotencyKey());
          }} maxLength={SUPPORT_BODY_MAX} rows={3} />
      </FormField>
      {failure && (
        <p role="alert" className="rounded-lg border border-destructive/40 bg-destructive/5 p-3 text-sm text-destructive">
          {failure}
        </p>
      )}
      <Button type="submit" variant="outline" className="justify-self-start max-sm:w-full" loading={followUp.isPending}>
        {m.submit}
      </Button>
    </form>
  );
}
