import { PricingPlans } from './pricing-plans.tsx';
import { SectionIntro } from './section-intro.tsx';

export function PricingSection() {
  return (
    <section id="pricing" aria-labelledby="pricing-title" className="scroll-mt-28 border-t bg-subtle py-20 md:scroll-mt-20 md:py-28">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <SectionIntro id="pricing-title" eyebrow="Plans" title="Simple, transparent pricing">
          Start with a 14-day free trial on Starter, or go Pro from day one. Prices in pounds sterling, billed monthly.
        </SectionIntro>
        <PricingPlans className="mt-16" />
      </div>
    </section>
  );
}
