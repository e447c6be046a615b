import { CircleCheck } from 'lucide-react';
import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { paths } from '@/lib/paths.ts';
import { CheckoutPlanStatus } from '../components/checkout-plan-status.tsx';

/**
 * Where the provider's checkout returns to (SPEC.md "Checkout success"). It only says thank you and shows the plan
 * once the payment webhook has recorded it: a visit to this page grants nothing (QUALITY.md).
 */
export function CheckoutSuccessScreen() {
  const [params] = useSearchParams();

  useEffect(() => {
    document.title = 'Welcome to the Platform! · Course Platform';
  }, []);

  return (
    <main className="flex min-h-dvh items-center justify-center bg-subtle px-4 py-10">
      <Card className="w-full max-w-md text-center">
        <CardHeader className="items-center">
          <span className="grid size-14 place-items-center rounded-full bg-muted">
            <CircleCheck aria-hidden="true" className="size-8 text-foreground" />
          </span>
          <CardTitle asLevel={1} className="mt-2 text-2xl">
            Welcome to the Platform!
          </CardTitle>
          <CardDescription>
            Your subscription has been activated. You can now create courses, invite learners and use every tool of your
            plan.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-5">
          <CheckoutPlanStatus awaitingPayment={params.has('session_id')} />
          <Button asChild size="lg" className="w-full">
            <Link to={paths.dashboard}>Go to Dashboard</Link>
          </Button>
        </CardContent>
      </Card>
    </main>
  );
}
