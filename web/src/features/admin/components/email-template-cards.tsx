import { Eye, Pencil } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { CONTENT_MAX, saveTemplateBody, SUBJECT_MAX, type EmailTemplate } from '@contracts/campaigns.ts';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Textarea } from '@/components/ui/textarea.tsx';
import { useSaveTemplate } from '../api/campaigns-queries.ts';
import { EmailContentPreview } from './email-content-preview.tsx';
import { fieldErrorsOfFailure, fieldErrorsOfIssues, type FieldErrors } from './email-form-errors.ts';

/**
 * Templates: a card per built-in template with Preview (its subject and content as the email reads), Edit (subject
 * and content, saved for every later use) and Use Template (Compose with it filled in).
 */
export function EmailTemplateCards({ templates, onUse }: { templates: readonly EmailTemplate[]; onUse: (template: EmailTemplate) => void }) {
  const [previewing, setPreviewing] = useState<EmailTemplate | null>(null);
  const [editing, setEditing] = useState<EmailTemplate | null>(null);

  return (
    <>
      <ul className="grid gap-4 md:grid-cols-2 xl:grid-cols-4" aria-label="Email templates">
        {templates.map((t) => (
          <li key={t.id} className="min-w-0">
            <Card className="flex h-full flex-col">
              <CardHeader>
                <CardTitle asLevel={3} className="flex flex-wrap items-center gap-2 text-base">
                  {t.name}
                  {t.updatedAt && <Badge variant="secondary">Edited</Badge>}
                </CardTitle>
                <CardDescription>{t.description}</CardDescription>
              </CardHeader>
              <CardFooter className="mt-auto flex-wrap gap-2">
                <Button variant="outline" size="sm" onClick={() => setPreviewing(t)} aria-label={`Preview ${t.name}`}>
                  <Eye aria-hidden="true" />
                  Preview
                </Button>
                <Button variant="outline" size="sm" onClick={() => setEditing(t)} aria-label={`Edit ${t.name}`}>
                  <Pencil aria-hidden="true" />
                  Edit
                </Button>
                <Button size="sm" onClick={() => onUse(t)} aria-label={`Use Template ${t.name}`}>
                  Use Template
                </Button>
              </CardFooter>
            </Card>
          </li>
        ))}
      </ul>

      <Dialog open={previewing !== null} onOpenChange={(open) => !open && setPreviewing(null)}>
        {previewing && (
          <DialogContent>
            <DialogHeader>
              <DialogTitle>{previewing.name}</DialogTitle>
              <DialogDescription>How the email reads; an unsubscribe link is added at the bottom of every campaign.</DialogDescription>
            </DialogHeader>
            <div className="grid gap-3 rounded-lg border bg-subtle p-4">
              <p className="text-sm">
                <span className="text-muted-foreground">Subject: </span>
                <span className="font-medium">{previewing.subject}</span>
              </p>
              <EmailContentPreview content={previewing.content} />
            </div>
            <DialogFooter>
              <DialogClose asChild>
                <Button variant="outline">Close</Button>
              </DialogClose>
            </DialogFooter>
          </DialogContent>
        )}
      </Dialog>

      <Dialog open={editing !== null} onOpenChange={(open) => !open && setEditing(null)}>
        {editing && <EditTemplateDialog key={editing.id} template={editing} onDone={() => setEditing(null)} />}
      </Dialog>
    </>
  );
}

function EditTemplateDialog({ template, onDone }: { template: EmailTemplate; onDone: () => void }) {
  const save = useSaveTemplate();
  const [subject, setSubject] = useState(template.subject);
  const [content, setContent] = useState(template.content);
  const [errors, setErrors] = useState<FieldErrors>({});

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = saveTemplateBody.safeParse({ subject, content });
    if (!parsed.success) {
      setErrors(fieldErrorsOfIssues(parsed.error.issues));
      return;
    }
    setErrors({});
    save.mutate({ id: template.id, body: parsed.data }, { onSuccess: onDone, onError: (error) => setErrors(fieldErrorsOfFailure(error)) });
  };

  return (
    <DialogContent fullScreenOnPhone>
      <DialogHeader>
        <DialogTitle>Edit {template.name}</DialogTitle>
        <DialogDescription>Every email that uses this template from now on starts from what you save here.</DialogDescription>
      </DialogHeader>
      <form noValidate onSubmit={onSubmit} className="grid gap-4">
        <FormField label="Subject" required error={errors.subject}>
          <Input value={subject} onChange={(e) => setSubject(e.target.value)} required maxLength={SUBJECT_MAX} />
        </FormField>
        <FormField label="Content" required error={errors.content}>
          <Textarea value={content} onChange={(e) => setContent(e.target.value)} required rows={12} maxLength={CONTENT_MAX} />
        </FormField>
        <DialogFooter>
          <DialogClose asChild>
            <Button type="button" variant="outline">
              Cancel
            </Button>
          </DialogClose>
          <Button type="submit" loading={save.isPending}>
            {save.isPending ? 'Saving...' : 'Save'}
          </Button>
        </DialogFooter>
      </form>
    </DialogContent>
  );
}
