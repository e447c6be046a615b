import { useInfiniteQuery } from '@tanstack/react-query';
import { UserPlus, Users } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { assignableRoles, createUserBody, roleNames, type AdminUser, type CreateUserBody } from '@contracts/admin-users.ts';
import { roles, type Role } from '@contracts/common.ts';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent } from '@/components/ui/card.tsx';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import { LoadMore } from '@/components/ui/load-more.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { SelectItem } from '@/components/ui/select.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table.tsx';
import { toast } from '@/components/ui/toaster.tsx';
import { ApiError } from '@/lib/api-error.ts';
import { errorMessage } from '@/lib/error-message.ts';
import { formatDay } from '@/lib/format-date.ts';
import { useProfile } from '@/lib/session-hooks.ts';
import { adminUsersQueryOptions, useCreateUser, useUpdateUser } from '../api/users-queries.ts';
import { EmailLoadFailed as LoadFailed, EmailLoading as Loading } from '../components/email-load-states.tsx';
import { fieldErrorsOfFailure, fieldErrorsOfIssues, type FieldErrors } from '../components/email-form-errors.ts';
import { SelectField } from '../components/select-field.tsx';

/** The role filter's order: the accounts an admin looks for most first. */
const filterOrder: readonly Role[] = ['creator', 'learner', 'leader', 'admin'];
const plural: Record<Role, string> = { admin: 'Admins', creator: 'Creators', leader: 'Group leaders', learner: 'Learners' };

/**
 * /dashboard/admin/users: the accounts of one role, newest first, 'Load more' for the next page, 'Add user', which
 * creates the account with a temporary password and emails the invitation, and Disable / Enable on each account but
 * one's own, after a confirmation.
 */
export function AdminUsersScreen() {
  const [role, setRole] = useState<Role>('creator');
  const [adding, setAdding] = useState(false);
  const [toggling, setToggling] = useState<AdminUser>();
  const [reRoling, setReRoling] = useState<AdminUser>();
  const users = useInfiniteQuery(adminUsersQueryOptions(role));
  const me = useProfile().data;
  const rows = users.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <div className="grid gap-6 *:min-w-0">
      <PageHeader
        title="Users"
        description="Every account on the platform, one role at a time, newest first."
        actions={
          <Button onClick={() => setAdding(true)}>
            <UserPlus aria-hidden="true" />
            Add user
          </Button>
        }
      />
      <div className="max-w-xs">
        <SelectField label="Role" value={role} error={undefined} onValueChange={(value) => setRole(value as Role)}>
          {filterOrder.map((r) => (
            <SelectItem key={r} value={r}>
              {plural[r]}
            </SelectItem>
          ))}
        </SelectField>
      </div>

      {users.isPending ? (
        <Loading label="Loading users..." />
      ) : users.isError ? (
        <LoadFailed message="Failed to load users" onRetry={() => void users.refetch()} retrying={users.isRefetching} />
      ) : rows.length === 0 ? (
        <EmptyState icon={Users} title={`No ${plural[role].toLowerCase()} yet`}>
          Accounts of this role appear here as they sign up or are invited.
        </EmptyState>
      ) : (
        <Card>
          <CardContent className="grid gap-4 pt-6">
            <Table label={plural[role]}>
              <TableHeader>
                <TableRow>
                  <TableHead>Email</TableHead>
                  <TableHead className="hidden sm:table-cell">Role</TableHead>
                  <TableHead className="hidden md:table-cell">Joined</TableHead>
                  <TableHead className="hidden sm:table-cell">Status</TableHead>
                  <TableHead>
                    <span className="sr-only">Actions</span>
                  </TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {rows.map((user) => (
                  <TableRow key={user.id}>
                    <TableCell>
                      <span className="font-medium [overflow-wrap:anywhere]">{user.email}</span>
                      {/* On a phone the other columns fold under the address. */}
                      <span className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-muted-foreground sm:hidden">
                        {roleNames[user.role]} · {formatDay(user.createdAt)}
                        <StatusBadge disabled={user.disabled} />
                      </span>
                    </TableCell>
                    <TableCell className="hidden sm:table-cell">{roleNames[user.role]}</TableCell>
                    <TableCell className="hidden whitespace-nowrap md:table-cell">{formatDay(user.createdAt)}</TableCell>
                    <TableCell className="hidden sm:table-cell">
                      <StatusBadge disabled={user.disabled} />
                    </TableCell>
                    <TableCell className="text-right">
                      {user.id === me?.id ? (
                        <span className="text-sm text-muted-foreground">You</span>
                      ) : (
                        <div className="flex flex-wrap justify-end gap-2">
                          {/* A creator's courses and subscription belong to the creator role: it does not change. */}
                          {user.role !== 'creator' && (
                            <Button variant="outline" size="sm" aria-label={`Change the role of ${user.email}`} onClick={() => setReRoling(user)}>
                              Change role
                            </Button>
                          )}
                          <Button variant="outline" size="sm" aria-label={`${user.disabled ? 'Enable' : 'Disable'} ${user.email}`} onClick={() => setToggling(user)}>
                            {user.disabled ? 'Enable' : 'Disable'}
                          </Button>
                        </div>
                      )}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
            <LoadMore pages={users} />
          </CardContent>
        </Card>
      )}

      <ToggleAccountDialog user={toggling} onDone={() => setToggling(undefined)} />
      <ChangeRoleDialog user={reRoling} onDone={() => setReRoling(undefined)} />

      <AddUserDialog
        open={adding}
        onOpenChange={setAdding}
        onCreated={(created) => {
          setAdding(false);
          setRole(created);
        }}
      />
    </div>
  );
}

function StatusBadge({ disabled }: { disabled: boolean }) {
  return <Badge variant={disabled ? 'outline' : 'secondary'}>{disabled ? 'Disabled' : 'Active'}</Badge>;
}

/** Disable or Enable, confirmed: what happens to the account is said before it does. */
function ToggleAccountDialog({ user, onDone }: { user: AdminUser | undefined; onDone: () => void }) {
  const toggle = useUpdateUser();
  const disabling = user?.disabled !== true;
  const confirm = () => {
    if (!user) return;
    toggle.mutate(
      { user, changes: { disabled: disabling } },
      {
        onSuccess: (updated) => {
          if (updated.disabled) toast.success('Account disabled', { description: `${updated.email} can no longer sign in.` });
          else toast.success('Account enabled', { description: `${updated.email} can sign in again.` });
          onDone();
        },
        onError: (error) => toast.error(disabling ? 'Could not disable the account' : 'Could not enable the account', { description: errorMessage(error) }),
      },
    );
  };
  return (
    <ConfirmDialog
      open={user !== undefined}
      onOpenChange={(open) => !open && onDone()}
      title={disabling ? 'Disable this account?' : 'Enable this account?'}
      action={disabling ? 'Disable account' : 'Enable account'}
      destructive={disabling}
      busy={toggle.isPending}
      onConfirm={confirm}
    >
      {disabling
        ? `${user?.email ?? ''} will no longer be able to sign in, and their open sessions end within the hour. Their courses, learners and data are kept, and you can enable the account again at any time.`
        : `${user?.email ?? ''} will be able to sign in again with their existing password.`}
    </ConfirmDialog>
  );
}

type AssignableRole = (typeof assignableRoles)[number];

/** 'Change role': another of admin, group leader and learner; the account is signed out and signs in with it. */
function ChangeRoleDialog({ user, onDone }: { user: AdminUser | undefined; onDone: () => void }) {
  const update = useUpdateUser();
  const [picked, setPicked] = useState<AssignableRole>();
  const role = picked ?? (user?.role as AssignableRole | undefined) ?? 'learner';
  const close = () => {
    setPicked(undefined);
    onDone();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!user || role === user.role) return;
    update.mutate(
      { user, changes: { role } },
      {
        onSuccess: (updated) => {
          toast.success('Role changed', { description: `${updated.email} is now ${article(roleNames[updated.role])} and signs in again to use it.` });
          close();
        },
        onError: (error) => toast.error('Could not change the role', { description: errorMessage(error) }),
      },
    );
  };
  return (
    <Dialog open={user !== undefined} onOpenChange={(open) => !open && !update.isPending && close()}>
      <DialogContent className="sm:max-w-md">
        <DialogHeader>
          <DialogTitle>Change role</DialogTitle>
          <DialogDescription>
            {user?.email} is {article(roleNames[user?.role ?? 'learner'])}. With another role they are signed out, and sign in again to use it.
          </DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={submit} className="grid gap-4">
          <SelectField label="New role" value={role} error={undefined} onValueChange={(value) => setPicked(value as AssignableRole)}>
            {assignableRoles.map((r) => (
              <SelectItem key={r} value={r}>
                {roleNames[r]}
              </SelectItem>
            ))}
          </SelectField>
          <DialogFooter>
            <Button type="button" variant="outline" disabled={update.isPending} onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={update.isPending} disabled={role === user?.role}>
              Change role
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** 'a Learner', 'an Admin'. */
const article = (noun: string) => `${/^[AEIOU]/i.test(noun) ? 'an' : 'a'} ${noun.toLowerCase()}`;

const emptyDraft: CreateUserBody = { email: '', role: 'leader' };

/** 'Add user': email and role; the account is created and invited, or the dialog says why not. */
function AddUserDialog({ open, onOpenChange, onCreated }: { open: boolean; onOpenChange: (open: boolean) => void; onCreated: (role: Role) => void }) {
  const [draft, setDraft] = useState<CreateUserBody>(emptyDraft);
  const [errors, setErrors] = useState<FieldErrors>({});
  const create = useCreateUser();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = createUserBody.safeParse(draft);
    if (!parsed.success) return setErrors(fieldErrorsOfIssues(parsed.error.issues));
    create.mutate(parsed.data, {
      onSuccess: (user) => {
        toast.success('User invited', { description: `${user.email} was emailed a temporary password to sign in.` });
        setDraft(emptyDraft);
        setErrors({});
        onCreated(user.role);
      },
      onError: (error) => {
        const fields = fieldErrorsOfFailure(error);
        if (error instanceof ApiError && error.code === 'CONFLICT') fields['email'] = error.message;
        setErrors(fields);
        if (Object.keys(fields).length === 0) toast.error('Could not add the user', { description: error.message });
      },
    });
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Add user</DialogTitle>
          <DialogDescription>The account is created with a temporary password, emailed to them with a sign-in link.</DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={submit} className="grid gap-4">
          <FormField label="Email" error={errors['email']} required>
            <Input type="email" autoComplete="off" value={draft.email} onChange={(e) => setDraft({ ...draft, email: e.target.value })} required />
          </FormField>
          <SelectField label="Role" value={draft.role} error={errors['role']} onValueChange={(value) => setDraft({ ...draft, role: value as Role })}>
            {roles.map((r) => (
              <SelectItem key={r} value={r}>
                {roleNames[r]}
              </SelectItem>
            ))}
          </SelectField>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              {create.isPending ? 'Inviting...' : 'Invite user'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
