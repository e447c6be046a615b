import { ArrowRight } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Button } from '@/components/ui/button.tsx';
import { paths } from '@/lib/paths.ts';

export function ClosingCta() {
  return (
    <section id="start" aria-labelledby="cta-title" className="px-4 pb-20 sm:px-6 md:pb-28">
      <div className="relative isolate mx-auto max-w-6xl overflow-hidden rounded-3xl bg-foreground px-6 py-16 text-center text-background shadow-2xl sm:px-16 md:py-20">
        <div
          aria-hidden="true"
          className="absolute inset-0 -z-10"
          style={{
            backgroundImage: [
              'radial-gradient(30rem 20rem at 15% 0%, oklch(0.5 0.22 277 / 0.55), transparent 70%)',
              'radial-gradient(28rem 18rem at 90% 100%, oklch(0.52 0.22 330 / 0.45), transparent 70%)',
            ].join(', '),
          }}
        />
        <h2 id="cta-title" className="mx-auto max-w-2xl text-3xl font-bold tracking-tight text-balance sm:text-4xl">
          Ready to turn what you know into a business?
        </h2>
        <p className="mx-auto mt-4 max-w-xl text-lg text-pretty text-background/85">
          Publish your first course this week, license it to teams next month, and keep 100% of what you earn.
        </p>
        <div className="mt-9 flex flex-col items-center justify-center gap-3 sm:flex-row">
          <Button asChild size="lg" className="h-12 bg-background px-7 text-base text-foreground hover:bg-background/90">
            <Link to={paths.signup}>
              Create your creator account
              <ArrowRight aria-hidden="true" />
            </Link>
          </Button>
        </div>
        <p className="mt-5 text-sm text-background/75">14-day free trial on Starter · Secure card payments</p>
      </div>
    </section>
  );
}
