import { ArrowRight, Sparkles } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Button } from '@/components/ui/button.tsx';
import { paths } from '@/lib/paths.ts';
import { HeroIllustration } from './hero-illustration.tsx';

const claims = [
  { figure: '99.9%', label: 'uptime' },
  { figure: '100%', label: 'of your earnings kept' },
  { figure: '14-day', label: 'free trial' },
] as const;

export function Hero() {
  return (
    <section aria-labelledby="hero-title" className="relative isolate overflow-hidden">
      <HeroBackdrop />
      <div className="mx-auto grid max-w-6xl items-center gap-14 px-4 pt-14 pb-20 sm:px-6 md:pt-20 lg:grid-cols-[1.05fr_1fr] lg:gap-12 lg:pt-24 lg:pb-28">
        <div className="text-center lg:text-left">
          <p className="inline-flex items-center gap-2 rounded-full border bg-background/80 px-3.5 py-1.5 text-xs font-medium text-foreground shadow-sm sm:text-sm">
            <Sparkles aria-hidden="true" className="size-4 text-primary" />
            Courses, licensing and marketing in one place
          </p>
          <h1
            id="hero-title"
            className="mt-6 text-5xl leading-[1.05] font-extrabold tracking-tight text-balance sm:text-6xl lg:text-7xl"
          >
            Create. License.{' '}
            <span className="bg-clip-text text-transparent" style={{ backgroundImage: gradientText }}>
              Grow.
            </span>
          </h1>
          <p className="mx-auto mt-6 max-w-xl text-lg text-pretty text-muted-foreground sm:text-xl lg:mx-0">
            Build online courses people love, license them to teams and organisations, and grow with coupons,
            affiliates and sales tracking built in. You keep 100% of your earnings.
          </p>
          <div className="mt-9 flex flex-col justify-center gap-3 sm:flex-row lg:justify-start">
            <Button asChild size="lg" className="h-12 px-7 text-base shadow-lg shadow-primary/25">
              <Link to={paths.signup}>
                Start your free trial
                <ArrowRight aria-hidden="true" />
              </Link>
            </Button>
            <Button asChild size="lg" variant="outline" className="h-12 bg-background/80 px-7 text-base">
              <a href="#pricing">Compare plans</a>
            </Button>
          </div>
          <ul className="mt-10 flex flex-wrap justify-center gap-x-8 gap-y-3 text-sm text-muted-foreground lg:justify-start">
            {claims.map((claim) => (
              <li key={claim.label}>
                <strong className="text-base font-bold text-foreground">{claim.figure}</strong> {claim.label}
              </li>
            ))}
          </ul>
        </div>
        <HeroIllustration />
      </div>
    </section>
  );
}

// Dark enough at both ends for large text on white (>= 3:1), so the gradient never costs contrast.
const gradientText = 'linear-gradient(100deg, var(--color-primary) 10%, oklch(0.52 0.24 320) 90%)';

/** Soft colour fields and a faint grid behind the hero; pure CSS, nothing to download. */
function HeroBackdrop() {
  return (
    <div aria-hidden="true" className="pointer-events-none absolute inset-0 -z-10">
      <div
        className="absolute inset-0"
        style={{
          backgroundImage: [
            'radial-gradient(40rem 28rem at 12% -8%, oklch(0.9 0.08 280 / 0.85), transparent 70%)',
            'radial-gradient(34rem 26rem at 92% 8%, oklch(0.92 0.07 330 / 0.8), transparent 70%)',
            'radial-gradient(40rem 24rem at 60% 105%, oklch(0.94 0.06 200 / 0.7), transparent 70%)',
          ].join(', '),
        }}
      />
      <div
        className="absolute inset-0 opacity-60"
        style={{
          backgroundImage:
            'linear-gradient(to right, oklch(0.21 0.006 285.9 / 0.05) 1px, transparent 1px), linear-gradient(to bottom, oklch(0.21 0.006 285.9 / 0.05) 1px, transparent 1px)',
          backgroundSize: '48px 48px',
          maskImage: 'radial-gradient(ellipse 70% 60% at 50% 30%, black, transparent)',
        }}
      />
    </div>
  );
}
