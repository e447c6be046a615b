import { useMutation } from '@tanstack/react-query';
import { CircleAlert } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { accountDeletionAccepted, DELETE_CONFIRMATION } from '@contracts/account-deletion.ts';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { apiClient } from '@/lib/api-client.ts';
import { ApiError } from '@/lib/api-error.ts';
import { errorMessage } from '@/lib/error-message.ts';
import { ACCOUNT_DELETED_PARAM, paths } from '@/lib/paths.ts';
import type { Role } from '@/lib/roles.ts';
import { signOutAndForget } from '@/lib/session.ts';

/** What the section says where a test may look for it. */
export const deleteAccountMessages = {
  title: 'Delete my account',
  description: 'Close your account and erase your personal data. This cannot be undone.',
  open: 'Delete my account',
  dialogTitle: 'Delete your account?',
  /** What is erased and what stays, in the words of docs/privacy.md made plain. */
  erased: [
    'You are signed out at once and cannot sign in again.',
    'Within a few minutes we erase your profile, your enrolments and progress, your quiz results and any notes a course creator keeps about you.',
    'Your comments stay in their discussions, shown as by “Deleted user”.',
    'Certificates you earned can still be checked, but no longer show your name.',
    'Orders and invoices are kept, as the law requires, without your name or email address.',
    'We keep your email address on our do-not-email list, so you get no marketing from us again.',
  ],
  exportFirst: 'If you want a copy of your data, use “Download my data” first.',
  /** What each role should know before it goes, after `exportFirst`. */
  roleNotes: {
    creator: 'If learners are enrolled on one of your published courses, unpublish it first.',
    leader: 'Team licences you lead stay with their courses: your members keep their seats, and the course’s creator can still change or end a licence.',
    admin: 'Another admin must remain: if you are the only one, make another account an admin first.',
  } as Partial<Record<Role, string>>,
  confirmLabel: `Type ${DELETE_CONFIRMATION} to confirm`,
  cancel: 'Cancel',
  confirm: 'Delete my account',
  deleting: 'Deleting...',
  blockedTitle: 'Your account was not deleted',
  blocked: 'Learners are enrolled on these published courses. Unpublish them first, then delete your account:',
  failedTitle: 'Your account could not be deleted',
};

/** The 409's `details.courses`: the titles of the published courses that still hold learners. */
const blockingCourses = (error: unknown): string[] | undefined => {
  if (!(error instanceof ApiError) || error.status !== 409) return undefined;
  const courses = (error.details as { courses?: unknown } | undefined)?.courses;
  return Array.isArray(courses) && courses.every((c) => typeof c === 'string') ? courses : undefined;
};

/**
 * "Delete my account" beside "Your data" on every profile page (issue 37 point 2): a dialog says what is erased and
 * what stays, asks for DELETE typed (the API takes nothing else), then DELETE /api/me. A creator refused (409) sees
 * the courses to unpublish, one per line; on 202 the session is ended and the page is loaded afresh on sign-in with
 * the notice, so nothing of the account stays in memory and the dashboard's own "session ended" redirect cannot win.
 */
export function DeleteAccountSection({ role }: { role: Role }) {
  const m = deleteAccountMessages;
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const inputId = useId();
  const remove = useMutation({
    mutationFn: () => apiClient.delete('/api/me', accountDeletionAccepted, { body: { confirm: DELETE_CONFIRMATION } }),
    onSuccess: async () => {
      // The server has signed the account out everywhere already; a failure to end the local session changes nothing.
      await signOutAndForget().catch(() => undefined);
      globalThis.location.replace(`${paths.login}?${ACCOUNT_DELETED_PARAM}=1`);
    },
  });
  const confirmed = typed.trim() === DELETE_CONFIRMATION;
  const courses = blockingCourses(remove.error);

  const onOpenChange = (next: boolean) => {
    if (remove.isPending) return;
    setOpen(next);
    if (!next) {
      setTyped('');
      remove.reset();
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (confirmed && !remove.isPending) remove.mutate();
  };

  return (
    <Card className="border-destructive/40">
      <CardHeader>
        <CardTitle>{m.title}</CardTitle>
        <CardDescription>{m.description}</CardDescription>
      </CardHeader>
      <CardContent>
        <Button type="button" variant="destructive" onClick={() => setOpen(true)}>
          {m.open}
        </Button>
        <Dialog open={open} onOpenChange={onOpenChange}>
          <DialogContent role="alertdialog" fullScreenOnPhone>
            <form className="grid gap-4" onSubmit={submit} noValidate>
              <DialogHeader>
                <DialogTitle>{m.dialogTitle}</DialogTitle>
                <DialogDescription>{m.description}</DialogDescription>
              </DialogHeader>
              <ul className="grid list-disc gap-1.5 pl-5 text-sm">
                {m.erased.map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
              <p className="text-sm">
                {m.exportFirst}
                {m.roleNotes[role] !== undefined && ` ${m.roleNotes[role]}`}
              </p>
              <div className="grid gap-2">
                <Label htmlFor={inputId}>{m.confirmLabel}</Label>
                <Input
                  id={inputId}
                  value={typed}
                  onChange={(event) => setTyped(event.target.value)}
                  autoComplete="off"
                  autoCapitalize="characters"
                  spellCheck={false}
                  disabled={remove.isPending}
                />
              </div>
              {remove.isError && (
                <div role="alert" className="flex gap-3 rounded-lg border border-destructive/40 bg-destructive/5 p-3 text-sm">
                  <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-destructive" />
                  <div className="grid min-w-0 gap-1 [overflow-wrap:anywhere]">
                    <p className="font-semibold">{courses ? m.blockedTitle : m.failedTitle}</p>
                    {courses ? (
                      <>
                        <p>{m.blocked}</p>
                        <ul className="list-disc pl-5" aria-label="Courses to unpublish">
                          {courses.map((title) => (
                            <li key={title}>{title}</li>
                          ))}
                        </ul>
                      </>
                    ) : (
                      <p>{errorMessage(remove.error)}</p>
                    )}
                  </div>
                </div>
              )}
              <DialogFooter>
                <DialogClose asChild>
                  <Button type="button" variant="outline" disabled={remove.isPending}>
                    {m.cancel}
                  </Button>
                </DialogClose>
                <Button type="submit" variant="destructive" disabled={!confirmed} loading={remove.isPending}>
                  {remove.isPending ? m.deleting : m.confirm}
                </Button>
              </DialogFooter>
            </form>
          </DialogContent>
        </Dialog>
      </CardContent>
    </Card>
  );
}
