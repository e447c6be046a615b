import { useRef, useState } from 'react';
import { supportReplyBody, SUPPORT_BODY_MAX, type AdminSupportRequest } from '@contracts/support.ts';
import { Button } from '@/components/ui/button.tsx';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { Textarea } from '@/components/ui/textarea.tsx';
import { toast } from '@/components/ui/toaster.tsx';
import { errorMessage } from '@/lib/error-message.ts';
import { newIdempotencyKey } from '@/lib/idempotency-key.ts';
import { useReplySupportRequest } from '../api/support-queries.ts';
import { supportMessages } from '../support-messages.ts';

const m = supportMessages.admin;

/**
 * The admin's reply to one open request: 'Send reply', or 'Reply and close' after a confirmation (a closed request
 * cannot be reopened). Checked with the contract's rules first; the server's refusal stays under the form.
 */
export function ReplyForm({ request, onReplied }: { request: AdminSupportRequest; onReplied: (closed: boolean) => void }) {
  const reply = useReplySupportRequest();
  const [body, setBody] = useState('');
  const [error, setError] = useState<string>();
  const [failure, setFailure] = useState<string>();
  // One key per message, kept while its send is retried; a changed text is another message.
  const [key, setKey] = useState(newIdempotencyKey);
  const [confirming, setConfirming] = useState(false);
  const field = useRef<HTMLTextAreaElement>(null);

  const send = (close: boolean) => {
    setFailure(undefined);
    const parsed = supportReplyBody.safeParse({ body, ...(close ? { close: true } : {}) });
    if (!parsed.success) {
      setConfirming(false);
      setError(parsed.error.issues[0]?.message);
      field.current?.focus();
      return;
    }
    setError(undefined);
    reply.mutate(
      { requestId: request.id, body: parsed.data, key: `${key}${close ? '-close' : ''}` },
      {
        onSuccess: () => {
          toast.success(close ? m.sentAndClosed : m.sent);
          setBody('');
          setKey(newIdempotencyKey());
          setConfirming(false);
          onReplied(close);
        },
        onError: (err) => {
          setConfirming(false);
          setFailure(errorMessage(err, m.failed));
        },
      },
    );
  };

  return (
    <form
      noValidate
      aria-label={`${m.reply}: ${request.subject}`}
      className="grid gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        send(false);
      }}
    >
      <FormField label={m.replyLabel} error={error} description={m.replyHint} required>
        <Textarea ref={field} value={body} onChange={(event) => {
            setBody(event.target.value);
            setKey(newIdempotencyKey());
          }} maxLength={SUPPORT_BODY_MAX} rows={5} required />
      </FormField>
      {failure && (
        <p role="alert" className="rounded-lg border border-destructive/40 bg-destructive/5 p-3 text-sm text-destructive">
          {failure}
        </p>
      )}
      <div className="flex flex-wrap gap-2 max-sm:*:flex-1">
        <Button type="submit" loading={reply.isPending && !confirming}>
          {m.send}
        </Button>
        <Button type="button" variant="outline" disabled={reply.isPending} onClick={() => setConfirming(true)}>
          {m.sendAndClose}
        </Button>
      </div>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={m.confirmClose.title}
        action={m.sendAndClose}
        busy={reply.isPending}
        destructive={false}
        onConfirm={() => send(true)}
      >
        {m.confirmClose.body}
      </ConfirmDialog>
    </form>
  );
}
