import { ChevronDown } from 'lucide-react';
import { SectionIntro } from './section-intro.tsx';

const questions = [
  {
    question: 'How does the 14-day free trial work?',
    answer:
      'Choose the Starter plan and you get 14 days to build and publish courses before your first payment of £28. Pro starts at £67 a month from day one.',
  },
  {
    question: 'Do you take a share of my course sales?',
    answer: 'No. Creators keep 100% of their earnings; you only pay the monthly price of your plan.',
  },
  {
    question: 'Can I license my courses to companies and teams?',
    answer:
      'Yes. License courses to organisations, and their group leaders manage learners, follow progress and see reports. Pro adds advanced licensing options and bulk user management.',
  },
  {
    question: 'Who can subscribe to a paid plan?',
    answer:
      'Creators. Learners and Group Leaders do not need a plan: creators invite them, or they join through a course enrolment.',
  },
  {
    question: 'Which marketing tools are included?',
    answer:
      'Coupons, affiliates and sales tracking, plus AI-generated landing pages for your courses. The affiliate system comes with Pro.',
  },
  {
    question: 'How reliable is the platform?',
    answer: 'We run on redundant cloud infrastructure with 99.9% uptime, so your courses are there whenever your learners are.',
  },
] as const;

/** Native disclosure widgets: keyboard and screen-reader support come with the browser, no script needed. */
export function FaqSection() {
  return (
    <section id="faq" aria-labelledby="faq-title" className="scroll-mt-28 py-20 md:scroll-mt-20 md:py-28">
      <div className="mx-auto max-w-3xl px-4 sm:px-6">
        <SectionIntro id="faq-title" eyebrow="FAQ" title="Frequently asked questions">
          Everything you might want to know before you start.
        </SectionIntro>
        <div className="mt-12 divide-y rounded-2xl border bg-card shadow-sm">
          {questions.map(({ question, answer }) => (
            <details key={question} className="group">
              <summary className="flex cursor-pointer list-none items-center justify-between gap-4 rounded-2xl px-5 py-5 text-left font-semibold outline-none hover:text-primary focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset sm:px-6 [&::-webkit-details-marker]:hidden">
                {question}
                <ChevronDown
                  aria-hidden="true"
                  className="size-5 shrink-0 text-muted-foreground transition-transform group-open:rotate-180"
                />
              </summary>
              <p className="px-5 pb-5 text-muted-foreground sm:px-6">{answer}</p>
            </details>
          ))}
        </div>
      </div>
    </section>
  );
}
