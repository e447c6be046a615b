import {
  Award,
  BarChart3,
  BookOpen,
  Building2,
  KeyRound,
  LineChart,
  Megaphone,
  Palette,
  ShieldCheck,
  Sparkles,
  UserPlus,
  Users,
  UsersRound,
  Video,
  type LucideIcon,
} from 'lucide-react';
import { SectionIntro } from './section-intro.tsx';

interface Feature {
  icon: LucideIcon;
  title: string;
  text: string;
}

const forCreators: Feature[] = [
  { icon: BookOpen, title: 'Course builder', text: 'Unlimited courses with text and video lessons, organised your way and published when you are ready.' },
  { icon: LineChart, title: 'Student progress tracking', text: 'See who is enrolled, how far each learner has got and who could use a nudge.' },
  { icon: Megaphone, title: 'Marketing tools', text: 'Coupons, affiliates and sales tracking are built in, so every launch reaches further.' },
  { icon: Sparkles, title: 'AI landing pages', text: 'Describe your brand and generate a sales page for your courses in seconds.' },
  { icon: Users, title: 'Learner CRM', text: 'Keep notes on every learner and send resources or encouragement in a click.' },
  { icon: Video, title: 'Live sessions', text: 'Connect Zoom, Microsoft Teams and Google Calendar for live classes.' },
];

const forBusinesses: Feature[] = [
  { icon: KeyRound, title: 'Team licensing', text: 'License courses to teams and organisations, with the seats you need.' },
  { icon: UsersRound, title: 'Group leaders', text: 'Leaders manage their groups, follow completion and keep everyone on track.' },
  { icon: UserPlus, title: 'Bulk user management', text: 'Invite a whole department at once; every learner gets their sign-in by email.' },
  { icon: BarChart3, title: 'Detailed reporting', text: 'Completion rates, certificates and activity across every team, at a glance.' },
  { icon: Award, title: 'Certificates', text: 'Recognise finished courses with certificates your people can be proud of.' },
  { icon: ShieldCheck, title: '99.9% uptime', text: 'Reliable, secure infrastructure, so training never waits on us.' },
];

export function FeaturesSection() {
  return (
    <section id="features" aria-labelledby="features-title" className="scroll-mt-28 border-t bg-subtle py-20 md:scroll-mt-20 md:py-28">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <SectionIntro id="features-title" eyebrow="Platform" title="Everything you need to teach, license and sell">
          One place for the courses you create, the teams you train and the marketing that grows them.
        </SectionIntro>
        <div className="mt-14 grid gap-6 lg:grid-cols-2 lg:gap-8">
          <FeatureGroup
            icon={Palette}
            title="For creators"
            lead="Build, publish and market your courses without stitching tools together."
            features={forCreators}
          />
          <FeatureGroup
            icon={Building2}
            title="For businesses"
            lead="Give teams the courses they need, and see the progress they make."
            features={forBusinesses}
          />
        </div>
      </div>
    </section>
  );
}

function FeatureGroup({ icon: Icon, title, lead, features }: { icon: LucideIcon; title: string; lead: string; features: Feature[] }) {
  return (
    <div className="rounded-3xl border bg-card p-6 shadow-sm sm:p-8">
      <div className="flex items-center gap-3">
        <span className="grid size-11 place-items-center rounded-xl bg-primary text-primary-foreground shadow-md shadow-primary/20">
          <Icon aria-hidden="true" className="size-5" />
        </span>
        <h3 className="text-xl font-bold tracking-tight">{title}</h3>
      </div>
      <p className="mt-3 text-muted-foreground">{lead}</p>
      <ul className="mt-8 grid gap-x-6 gap-y-7 sm:grid-cols-2">
        {features.map(({ icon: FeatureIcon, title: featureTitle, text }) => (
          <li key={featureTitle} className="flex gap-3.5">
            <span className="grid size-9 shrink-0 place-items-center rounded-lg bg-primary/10 text-primary">
              <FeatureIcon aria-hidden="true" className="size-[1.125rem]" />
            </span>
            <div>
              <h4 className="font-semibold">{featureTitle}</h4>
              <p className="mt-1 text-sm text-muted-foreground">{text}</p>
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}
