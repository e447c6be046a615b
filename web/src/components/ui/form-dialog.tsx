import type { ReactNode } from 'react';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog.tsx';

/**
 * A dialog around a form: it does not close while the form is sending (`busy`), and the form is mounted only while
 * the dialog is open, so each opening starts from an empty form. `children` gets `cancel` for its Cancel button.
 */
export function FormDialog(props: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  busy: boolean;
  title: string;
  description: string;
  className?: string;
  children: (cancel: () => void) => ReactNode;
}) {
  const close = (next: boolean) => {
    if (!props.busy) props.onOpenChange(next);
  };
  return (
    <Dialog open={props.open} onOpenChange={close}>
      <DialogContent fullScreenOnPhone className={props.className}>
        <DialogHeader>
          <DialogTitle>{props.title}</DialogTitle>
          <DialogDescription>{props.description}</DialogDescription>
        </DialogHeader>
        {props.open && props.children(() => close(false))}
      </DialogContent>
    </Dialog>
  );
}
