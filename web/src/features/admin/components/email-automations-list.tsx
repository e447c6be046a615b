import { useId } from 'react';
import type { EmailAutomation, EmailTemplate } from '@contracts/campaigns.ts';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Label } from '@/components/ui/label.tsx';
import { Switch } from '@/components/ui/switch.tsx';
import { useSetAutomationEnabled } from '../api/campaigns-queries.ts';

/**
 * Automations: the emails the platform sends on its own (welcome on sign-up, trial ending), each with its trigger,
 * template, how many it has sent and an on/off switch that takes effect at once (and springs back if saving fails).
 */
export function EmailAutomationsList({ automations, templates }: { automations: readonly EmailAutomation[]; templates: readonly EmailTemplate[] }) {
  const setEnabled = useSetAutomationEnabled();
  const templateName = (id: string) => templates.find((t) => t.id === id)?.name ?? id;

  return (
    <Card>
      <CardHeader>
        <CardTitle asLevel={3} className="text-base">
          Automations
        </CardTitle>
        <CardDescription>Emails sent on their own when something happens. Switch one off to stop it.</CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="divide-y" aria-label="Automations">
          {automations.map((a) => (
            <AutomationRow
              key={a.id}
              automation={a}
              templateName={templateName(a.templateId)}
              onEnabledChange={(enabled) => setEnabled.mutate({ id: a.id, enabled })}
            />
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}

function AutomationRow({
  automation: a,
  templateName,
  onEnabledChange,
}: {
  automation: EmailAutomation;
  templateName: string;
  onEnabledChange: (enabled: boolean) => void;
}) {
  const switchId = useId();
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 py-3 first:pt-0 last:pb-0">
      <div className="min-w-0">
        <p className="text-sm font-medium">{a.name}</p>
        <p className="text-sm text-muted-foreground">{a.trigger}</p>
        <p className="text-sm text-muted-foreground">
          Template: {templateName} · {a.sent.toLocaleString('en-GB')} sent
        </p>
      </div>
      <div className="flex items-center gap-2">
        <Label htmlFor={switchId} className="text-sm text-muted-foreground">
          <span className="sr-only">{a.name}: </span>
          {a.enabled ? 'On' : 'Off'}
        </Label>
        <Switch id={switchId} checked={a.enabled} onCheckedChange={onEnabledChange} />
      </div>
    </li>
  );
}
