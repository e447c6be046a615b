import { Send } from 'lucide-react';
import { useRef, useState, type FormEvent } from 'react';
import {
  campaignRecipients,
  recipientLabels,
  sendCampaignBody,
  SUBJECT_MAX,
  type CampaignRecipient,
  type CampaignTemplate,
  type EmailTemplate,
} from '@contracts/campaigns.ts';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import { SelectItem } from '@/components/ui/select.tsx';
import { SelectField } from './select-field.tsx';
import { Textarea } from '@/components/ui/textarea.tsx';
import { toast } from '@/components/ui/toaster.tsx';
import { newIdempotencyKey } from '@/lib/idempotency-key.ts';
import { emailMessages as m } from '../admin-messages.ts';
import { useSendCampaign } from '../api/campaigns-queries.ts';
import { fieldErrorsOfFailure, fieldErrorsOfIssues, type FieldErrors } from './email-form-errors.ts';

/** The campaign being written (SPEC.md "Email campaign draft"). */
export interface EmailDraft {
  recipient: CampaignRecipient;
  template: CampaignTemplate;
  subject: string;
  content: string;
}

/** SPEC.md section 7: after a send the form starts again with recipient all and template custom. */
export const emptyDraft: EmailDraft = { recipient: 'all', template: 'custom', subject: '', content: '' };

/** The draft a template starts: its subject and content, the template chosen, the recipients kept. */
export const draftFromTemplate = (draft: EmailDraft, template: EmailTemplate): EmailDraft => ({
  ...draft,
  template: template.id,
  subject: template.subject,
  content: template.content,
});

/**
 * Compose Email: Recipients, Template, Subject, Content and 'Send Email Campaign' ('Sending...'). The draft lives in
 * the screen, so Templates' 'Use Template' can fill it. One Idempotency-Key per send intent: sending the same draft
 * again after a failure reuses it (the server queues it once if the first try did arrive), any change makes a new one.
 */
export function EmailComposeForm({
  draft,
  onDraftChange,
  templates,
}: {
  draft: EmailDraft;
  onDraftChange: (draft: EmailDraft) => void;
  /** The templates to start from; empty while they load or if they could not be loaded ('Custom' still works). */
  templates: readonly EmailTemplate[];
}) {
  const send = useSendCampaign();
  const [errors, setErrors] = useState<FieldErrors>({});
  const [queuedFor, setQueuedFor] = useState<number | null>(null);
  const intent = useRef<{ draft: string; key: string } | null>(null);

  const change = (changes: Partial<EmailDraft>) => {
    onDraftChange({ ...draft, ...changes });
    setErrors((current) => Object.fromEntries(Object.entries(current).filter(([field]) => !(field in changes))));
  };

  const chooseTemplate = (value: string) => {
    const template = templates.find((t) => t.id === value);
    if (template) {
      onDraftChange(draftFromTemplate(draft, template));
      setErrors({});
    } else change({ template: 'custom' });
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = sendCampaignBody.safeParse(draft);
    if (!parsed.success) {
      setErrors(fieldErrorsOfIssues(parsed.error.issues));
      return;
    }
    const signature = JSON.stringify(parsed.data);
    if (intent.current?.draft !== signature) intent.current = { draft: signature, key: newIdempotencyKey() };
    send.mutate(
      { body: parsed.data, idempotencyKey: intent.current.key },
      {
        onSuccess: (queued) => {
          intent.current = null;
          setQueuedFor(queued.recipientCount);
          setErrors({});
          onDraftChange(emptyDraft);
          toast.success(m.sent.title, { description: m.sent.description });
        },
        onError: (error) => {
          setErrors(fieldErrorsOfFailure(error));
          toast.error(m.sendFailed.title, { description: m.sendFailed.description });
        },
      },
    );
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle asLevel={3} className="text-base">
          Compose Email
        </CardTitle>
        <CardDescription>Write a campaign for one group of users. It is sent in the background, in batches.</CardDescription>
      </CardHeader>
      <CardContent>
        <form noValidate onSubmit={onSubmit} className="grid gap-4">
          <div className="grid gap-4 sm:grid-cols-2">
            <SelectField label="Recipients" value={draft.recipient} error={errors.recipient} onValueChange={(recipient) => change({ recipient: recipient as CampaignRecipient })}>
              {campaignRecipients.map((r) => (
                <SelectItem key={r} value={r}>
                  {recipientLabels[r]}
                </SelectItem>
              ))}
            </SelectField>
            <SelectField label="Template" value={draft.template} error={errors.template} onValueChange={chooseTemplate}>
              <SelectItem value="custom">{m.customTemplate}</SelectItem>
              {templates.map((t) => (
                <SelectItem key={t.id} value={t.id}>
                  {t.name}
                </SelectItem>
              ))}
            </SelectField>
          </div>
          <FormField label="Subject" required error={errors.subject}>
            <Input value={draft.subject} onChange={(e) => change({ subject: e.target.value })} required maxLength={SUBJECT_MAX} />
          </FormField>
          <FormField label="Content" required error={errors.content} description="Plain text: a blank line starts a new paragraph; links become clickable.">
            <Textarea value={draft.content} onChange={(e) => change({ content: e.target.value })} required rows={10} />
          </FormField>
          <div className="flex flex-wrap items-center gap-3">
            <Button type="submit" loading={send.isPending} className="w-full sm:w-auto">
              {!send.isPending && <Send aria-hidden="true" />}
              {send.isPending ? m.sending : m.send}
            </Button>
            <p role="status" className="text-sm text-muted-foreground">
              {queuedFor === null ? '' : m.queuedFor(queuedFor)}
            </p>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
