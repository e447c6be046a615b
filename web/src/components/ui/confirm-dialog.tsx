import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog.tsx';

/**
 * A consequential action's question: 'Cancel' or the action, which stays busy until the server answers. The action
 * reads as destructive unless `destructive` is false (undoing something, such as enabling an account again). `dismiss`
 * names the way out where 'Cancel' would be ambiguous (cancelling a session: 'Keep session').
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  children,
  action,
  busy,
  onConfirm,
  destructive = true,
  dismiss = 'Cancel',
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  children: ReactNode;
  action: string;
  busy: boolean;
  onConfirm: () => void;
  destructive?: boolean;
  dismiss?: string;
}) {
  return (
    <Dialog open={open} onOpenChange={(next) => !busy && onOpenChange(next)}>
      <DialogContent className="sm:max-w-md" role="alertdialog">
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{children}</DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline" disabled={busy}>
              {dismiss}
            </Button>
          </DialogClose>
          <Button variant={destructive ? 'destructive' : 'default'} loading={busy} onClick={onConfirm}>
            {action}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
