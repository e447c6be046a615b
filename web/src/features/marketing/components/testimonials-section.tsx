import { Star } from 'lucide-react';
import { SectionIntro } from './section-intro.tsx';

const testimonials = [
  {
    quote:
      'I moved my three courses over in a weekend. The builder is a joy to use, and keeping 100% of my earnings made the decision easy.',
    name: 'Amelia Hart',
    role: 'Watercolour artist and teacher',
    hue: 25,
  },
  {
    quote:
      'Licensing our bootcamp to companies used to mean spreadsheets and invoices. Now a client team has its seats and a group leader the same day.',
    name: 'Daniel Okafor',
    role: 'Founder, CodeCraft Academy',
    hue: 160,
  },
  {
    quote:
      'Our group leaders see progress and certificates for every team at a glance. Reporting that used to take a week now takes a minute.',
    name: 'Priya Sharma',
    role: 'Head of Learning, Northwind Logistics',
    hue: 280,
  },
] as const;

function initials(name: string): string {
  return name
    .split(' ')
    .map((part) => part[0])
    .join('');
}

export function TestimonialsSection() {
  return (
    <section id="reviews" aria-labelledby="reviews-title" className="scroll-mt-28 py-20 md:scroll-mt-20 md:py-28">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <SectionIntro id="reviews-title" eyebrow="Testimonials" title="Creators and teams grow with us">
          From solo teachers to training departments, here is what people say.
        </SectionIntro>
        <ul className="mt-14 grid gap-6 md:grid-cols-3">
          {testimonials.map((t) => (
            <li key={t.name}>
              <figure className="flex h-full flex-col rounded-2xl border bg-card p-6 shadow-sm sm:p-7">
                <p role="img" aria-label="Rated 5 out of 5" className="flex gap-0.5 text-[oklch(0.62_0.16_65)]">
                  {[1, 2, 3, 4, 5].map((n) => (
                    <Star key={n} aria-hidden="true" className="size-4 fill-current" />
                  ))}
                </p>
                <blockquote className="mt-4 flex-1 text-base leading-relaxed text-foreground">
                  <p>“{t.quote}”</p>
                </blockquote>
                <figcaption className="mt-6 flex items-center gap-3 border-t pt-5">
                  <span
                    aria-hidden="true"
                    className="grid size-10 place-items-center rounded-full text-sm font-semibold text-white"
                    style={{ backgroundColor: `oklch(0.5 0.13 ${t.hue})` }}
                  >
                    {initials(t.name)}
                  </span>
                  <span className="text-sm">
                    <span className="block font-semibold">{t.name}</span>
                    <span className="text-muted-foreground">{t.role}</span>
                  </span>
                </figcaption>
              </figure>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
