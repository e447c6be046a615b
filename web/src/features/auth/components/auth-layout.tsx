import type { ReactNode } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';

/** The centred card every auth screen (sign in, sign up, reset) sits in. */
export function AuthLayout({ title, description, children, footer }: { title: string; description: string; children: ReactNode; footer?: ReactNode }) {
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center bg-subtle px-4 py-10">
      <p className="mb-6 flex items-center gap-2 text-base font-semibold tracking-tight">
        <span aria-hidden="true" className="grid size-8 place-items-center rounded-lg bg-primary text-sm text-primary-foreground">
          CP
        </span>
        Course Platform
      </p>
      <Card className="w-full max-w-sm">
        <CardHeader>
          <CardTitle asLevel={1}>{title}</CardTitle>
          <CardDescription>{description}</CardDescription>
        </CardHeader>
        <CardContent>{children}</CardContent>
      </Card>
      {footer && <div className="mt-6 text-center text-sm text-muted-foreground">{footer}</div>}
    </main>
  );
}
