import { BadgePercent, Check, Play, TrendingUp, UserPlus } from 'lucide-react';

const lessons = [
  { title: 'Colour mixing basics', done: true },
  { title: 'Wet-on-wet washes', done: true },
  { title: 'Layering and glazing', done: false },
] as const;

/**
 * A sketch of the product (a course, its earnings, a licence, a new enrolment) drawn with HTML and SVG, so the
 * hero needs no image download. Decorative: the hero's text says everything it shows.
 */
export function HeroIllustration() {
  return (
    <div aria-hidden="true" className="relative mx-auto w-full max-w-xl select-none lg:max-w-none">
      <div
        className="absolute -inset-6 -z-10 rounded-[2.5rem] opacity-70 blur-3xl"
        style={{ backgroundImage: 'linear-gradient(135deg, oklch(0.8 0.12 280), oklch(0.85 0.1 330), oklch(0.88 0.08 200))' }}
      />
      <div className="overflow-hidden rounded-2xl border bg-card shadow-2xl shadow-primary/15 ring-1 ring-foreground/5">
        <div className="flex items-center gap-2 border-b bg-subtle px-4 py-3">
          <span className="size-2.5 rounded-full bg-[oklch(0.75_0.15_25)]" />
          <span className="size-2.5 rounded-full bg-[oklch(0.85_0.15_85)]" />
          <span className="size-2.5 rounded-full bg-[oklch(0.78_0.15_150)]" />
          <span className="ml-3 truncate rounded-md border bg-background px-3 py-1 text-xs text-muted-foreground">
            studio.courseplatform.app/watercolour
          </span>
        </div>
        <div className="grid gap-4 p-4 sm:grid-cols-5 sm:p-5 sm:pb-12">
          <div className="rounded-xl border p-3 sm:col-span-3">
            <div
              className="relative grid h-28 place-items-center overflow-hidden rounded-lg"
              style={{ backgroundImage: 'linear-gradient(135deg, oklch(0.55 0.2 275), oklch(0.6 0.2 320) 60%, oklch(0.75 0.14 60))' }}
            >
              <svg viewBox="0 0 200 80" preserveAspectRatio="none" className="absolute inset-x-0 bottom-0 h-14 w-full">
                <path d="M0 50 C40 30 70 70 110 48 S170 30 200 44 V80 H0Z" fill="white" fillOpacity="0.18" />
                <path d="M0 62 C50 48 80 78 130 60 S180 52 200 60 V80 H0Z" fill="white" fillOpacity="0.22" />
              </svg>
              <span className="relative grid size-11 place-items-center rounded-full bg-white/90 text-[oklch(0.45_0.2_275)] shadow-lg">
                <Play className="ml-0.5 size-5 fill-current" />
              </span>
            </div>
            <p className="mt-3 text-sm font-semibold">Watercolour Foundations</p>
            <p className="text-xs text-muted-foreground">12 lessons · 3 h 20 min</p>
            <ul className="mt-3 flex flex-col gap-2">
              {lessons.map((lesson) => (
                <li key={lesson.title} className="flex items-center gap-2 text-xs">
                  <span
                    className={
                      lesson.done
                        ? 'grid size-4 place-items-center rounded-full bg-primary text-primary-foreground'
                        : 'size-4 rounded-full border-2 border-primary/40'
                    }
                  >
                    {lesson.done && <Check className="size-2.5" strokeWidth={4} />}
                  </span>
                  <span className={lesson.done ? 'text-muted-foreground' : 'font-medium'}>{lesson.title}</span>
                </li>
              ))}
            </ul>
            <div className="mt-4 flex items-center justify-between text-xs">
              <span className="text-muted-foreground">Course progress</span>
              <span className="font-semibold">68%</span>
            </div>
            <div className="mt-1.5 h-2 overflow-hidden rounded-full bg-muted">
              <div className="h-full w-[68%] rounded-full bg-primary" />
            </div>
          </div>
          <div className="flex flex-col gap-4 sm:col-span-2">
            <div className="rounded-xl border p-3">
              <p className="text-xs text-muted-foreground">Earnings this month</p>
              <p className="mt-1 text-2xl font-bold tracking-tight">£4,820</p>
              <p className="mt-0.5 inline-flex items-center gap-1 text-xs font-medium text-[oklch(0.45_0.13_150)]">
                <TrendingUp className="size-3.5" /> +18% on last month
              </p>
              <svg viewBox="0 0 120 40" className="mt-2 h-10 w-full" preserveAspectRatio="none">
                <defs>
                  <linearGradient id="hero-spark" x1="0" x2="0" y1="0" y2="1">
                    <stop offset="0%" stopColor="var(--color-primary)" stopOpacity="0.3" />
                    <stop offset="100%" stopColor="var(--color-primary)" stopOpacity="0" />
                  </linearGradient>
                </defs>
                <path d="M0 34 L15 30 L30 32 L45 24 L60 26 L75 17 L90 19 L105 9 L120 5 V40 H0Z" fill="url(#hero-spark)" />
                <path
                  d="M0 34 L15 30 L30 32 L45 24 L60 26 L75 17 L90 19 L105 9 L120 5"
                  fill="none"
                  stroke="var(--color-primary)"
                  strokeWidth="2"
                  strokeLinejoin="round"
                  vectorEffect="non-scaling-stroke"
                />
              </svg>
            </div>
            <div className="hidden rounded-xl border p-3 sm:block">
              <p className="text-xs text-muted-foreground">Team licence</p>
              <p className="mt-1 text-sm font-semibold">Northwind Logistics</p>
              <div className="mt-2 flex items-center justify-between text-xs text-muted-foreground">
                <span>22 of 25 seats</span>
                <span className="flex -space-x-1.5">
                  {['oklch(0.7 0.12 30)', 'oklch(0.7 0.12 160)', 'oklch(0.7 0.12 250)'].map((colour) => (
                    <span key={colour} className="size-5 rounded-full border-2 border-card" style={{ backgroundColor: colour }} />
                  ))}
                </span>
              </div>
              <div className="mt-1.5 h-1.5 overflow-hidden rounded-full bg-muted">
                <div className="h-full w-[88%] rounded-full bg-[oklch(0.6_0.15_160)]" />
              </div>
            </div>
          </div>
        </div>
      </div>
      <div className="absolute -bottom-7 -left-3 hidden items-center gap-3 rounded-xl border bg-card px-4 py-3 shadow-xl sm:flex lg:-left-8">
        <span className="grid size-9 place-items-center rounded-full bg-primary/10 text-primary">
          <UserPlus className="size-4" />
        </span>
        <span className="text-xs">
          <span className="block font-semibold">New enrolment</span>
          <span className="text-muted-foreground">Sofia joined Watercolour Foundations</span>
        </span>
      </div>
      <div className="absolute -top-5 -right-2 hidden items-center gap-2 rounded-full border bg-card px-3.5 py-2 text-xs font-medium shadow-lg sm:flex lg:-right-5">
        <BadgePercent className="size-4 text-primary" />
        Coupon SPRING25 applied
      </div>
    </div>
  );
}
