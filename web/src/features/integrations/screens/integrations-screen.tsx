import { useQuery } from '@tanstack/react-query';
import { CalendarDays, CircleCheck, CircleX, MonitorPlay, RotateCw, Users } from 'lucide-react';
import { useEffect, useId, useState, type ComponentProps, type FormEvent, type ReactNode } from 'react';
import { integrationNames, isConnected, type IntegrationService, type IntegrationsView, type SaveIntegrationsBody } from '@contracts/integrations.ts';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { Switch } from '@/components/ui/switch.tsx';
import { toast } from '@/components/ui/toaster.tsx';
import { integrationsQueryOptions, useSaveIntegrations } from '../api/integrations-queries.ts';
import { GoogleConnect } from '../components/google-connect.tsx';
import { integrationsMessages as m } from '../integrations-messages.ts';

/** The form: the saved settings with the secrets as new values to send (empty = keep the saved one). */
interface Form {
  zoom: { enabled: boolean; apiKey: string; apiSecret: string; accountId: string };
  teams: { enabled: boolean; clientId: string; clientSecret: string };
  googleCalendar: { enabled: boolean; calendarId: string };
}
type Errors = Partial<Record<string, string>>;

const formOf = (view: IntegrationsView): Form => ({
  zoom: { enabled: view.zoom.enabled, apiKey: view.zoom.apiKey, apiSecret: '', accountId: view.zoom.accountId },
  teams: { enabled: view.teams.enabled, clientId: view.teams.clientId, clientSecret: '' },
  googleCalendar: { ...view.googleCalendar },
});

/** A blank secret is left out of the body: the server keeps the saved one. */
const bodyOf = (form: Form): SaveIntegrationsBody => ({
  zoom: {
    enabled: form.zoom.enabled,
    apiKey: form.zoom.apiKey,
    accountId: form.zoom.accountId,
    ...(form.zoom.apiSecret === '' ? {} : { apiSecret: form.zoom.apiSecret }),
  },
  teams: { enabled: form.teams.enabled, clientId: form.teams.clientId, ...(form.teams.clientSecret === '' ? {} : { clientSecret: form.teams.clientSecret }) },
  googleCalendar: form.googleCalendar,
});

/** The server's rule, checked before sending: a switched-on service needs its fields (a saved secret counts). */
const missingFields = (form: Form, saved: IntegrationsView): Errors => {
  const errors: Errors = {};
  const need = (on: boolean, present: boolean, key: string, service: IntegrationService, label: string) => {
    if (on && !present) errors[key] = `To enable ${integrationNames[service]}, enter its ${label}.`;
  };
  need(form.zoom.enabled, form.zoom.apiKey.trim() !== '', 'zoom.apiKey', 'zoom', 'API Key');
  need(form.zoom.enabled, form.zoom.apiSecret !== '' || saved.zoom.apiSecretSet, 'zoom.apiSecret', 'zoom', 'API Secret');
  need(form.teams.enabled, form.teams.clientId.trim() !== '', 'teams.clientId', 'teams', 'Client ID');
  need(form.teams.enabled, form.teams.clientSecret !== '' || saved.teams.clientSecretSet, 'teams.clientSecret', 'teams', 'Client Secret');
  need(form.googleCalendar.enabled, form.googleCalendar.calendarId.trim() !== '', 'googleCalendar.calendarId', 'googleCalendar', 'Calendar ID');
  return errors;
};

/** /dashboard/creator/integrations: Zoom, Microsoft Teams and Google Calendar, and whether each is connected. */
export function IntegrationsScreen() {
  const query = useQuery(integrationsQueryOptions());

  useEffect(() => {
    if (query.isError) toast.error(m.loadFailed.title, { description: m.loadFailed.description });
  }, [query.isError]);

  return (
    <div className="grid gap-6 *:min-w-0">
      <PageHeader title="Live Session Integrations" description="Connect the tools you run live sessions with." />
      {query.isPending ? (
        <IntegrationsSkeleton />
      ) : query.isError ? (
        <Card role="alert">
          <CardHeader>
            <CardTitle>Your integrations could not be loaded</CardTitle>
            <CardDescription>Check your connection and try again.</CardDescription>
          </CardHeader>
          <CardContent>
            <Button variant="outline" loading={query.isFetching} onClick={() => void query.refetch()}>
              {!query.isFetching && <RotateCw aria-hidden="true" />}
              Try again
            </Button>
          </CardContent>
        </Card>
      ) : (
        <IntegrationsForm saved={query.data} />
      )}
    </div>
  );
}

/** The form starts from the saved settings, and again from each save's answer (the secret fields empty again). */
function IntegrationsForm({ saved }: { saved: IntegrationsView }) {
  const save = useSaveIntegrations();
  const [form, setForm] = useState<Form>(() => formOf(saved));
  const [errors, setErrors] = useState<Errors>({});

  const update = <S extends keyof Form>(service: S, changes: Partial<Form[S]>) => {
    setForm((current) => ({ ...current, [service]: { ...current[service], ...changes } }));
    setErrors((current) => Object.fromEntries(Object.entries(current).filter(([key]) => !key.startsWith(`${service}.`))));
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const missing = missingFields(form, saved);
    setErrors(missing);
    if (Object.keys(missing).length > 0) return;
    save.mutate(bodyOf(form), { onSuccess: (view) => setForm(formOf(view)) });
  };

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem] lg:items-start">
      <div className="grid gap-6 *:min-w-0">
        <ServiceCard
          icon={<MonitorPlay aria-hidden="true" />}
          title="Zoom"
          description="Create Zoom meetings for your live sessions (a Server-to-Server OAuth app's credentials)."
          enabled={form.zoom.enabled}
          onEnabledChange={(enabled) => update('zoom', { enabled })}
        >
          <FormField label="API Key" error={errors['zoom.apiKey']}>
            <Input value={form.zoom.apiKey} disabled={!form.zoom.enabled} autoComplete="off" onChange={(e) => update('zoom', { apiKey: e.target.value })} />
          </FormField>
          <FormField label="API Secret" error={errors['zoom.apiSecret']}>
            <SecretInput
              value={form.zoom.apiSecret}
              disabled={!form.zoom.enabled}
              stored={saved.zoom.apiSecretSet}
              onChange={(apiSecret) => update('zoom', { apiSecret })}
            />
          </FormField>
          <FormField label="Account ID" description="Optional: your Zoom account's id, for Server-to-Server OAuth apps.">
            <Input value={form.zoom.accountId} disabled={!form.zoom.enabled} autoComplete="off" onChange={(e) => update('zoom', { accountId: e.target.value })} />
          </FormField>
        </ServiceCard>

        <ServiceCard
          icon={<Users aria-hidden="true" />}
          title="Microsoft Teams"
          description="Schedule Teams meetings for your live sessions."
          enabled={form.teams.enabled}
          onEnabledChange={(enabled) => update('teams', { enabled })}
        >
          <FormField label="Client ID" error={errors['teams.clientId']}>
            <Input value={form.teams.clientId} disabled={!form.teams.enabled} autoComplete="off" onChange={(e) => update('teams', { clientId: e.target.value })} />
          </FormField>
          <FormField label="Client Secret" error={errors['teams.clientSecret']}>
            <SecretInput
              value={form.teams.clientSecret}
              disabled={!form.teams.enabled}
              stored={saved.teams.clientSecretSet}
              onChange={(clientSecret) => update('teams', { clientSecret })}
            />
          </FormField>
        </ServiceCard>

        <ServiceCard
          icon={<CalendarDays aria-hidden="true" />}
          title="Google Calendar"
          description="Add your live sessions to a Google Calendar."
          enabled={form.googleCalendar.enabled}
          onEnabledChange={(enabled) => update('googleCalendar', { enabled })}
        >
          <FormField label="Calendar ID" error={errors['googleCalendar.calendarId']}>
            <Input
              value={form.googleCalendar.calendarId}
              disabled={!form.googleCalendar.enabled}
              autoComplete="off"
              onChange={(e) => update('googleCalendar', { calendarId: e.target.value })}
            />
          </FormField>
          <GoogleConnect />
        </ServiceCard>

        <div>
          <Button type="submit" loading={save.isPending} className="w-full sm:w-auto">
            {save.isPending ? m.saving : m.save}
          </Button>
        </div>
      </div>
      <StatusCard saved={saved} />
    </form>
  );
}

function ServiceCard(props: {
  icon: ReactNode;
  title: string;
  description: string;
  enabled: boolean;
  onEnabledChange: (enabled: boolean) => void;
  children: ReactNode;
}) {
  const switchId = useId();
  return (
    <Card>
      <CardHeader className="flex-row items-start justify-between gap-4 space-y-0">
        <div className="grid min-w-0 gap-1.5">
          <CardTitle className="flex items-center gap-2 text-lg [&_svg]:size-5">
            {props.icon}
            {props.title}
          </CardTitle>
          <CardDescription>{props.description}</CardDescription>
        </div>
        <div className="flex shrink-0 items-center gap-2">
          <Label htmlFor={switchId} className="sr-only">
            Enable {props.title}
          </Label>
          <Switch id={switchId} checked={props.enabled} onCheckedChange={props.onEnabledChange} />
        </div>
      </CardHeader>
      <CardContent className="grid gap-4">{props.children}</CardContent>
    </Card>
  );
}

/** Connected or Disconnected per service, from the saved settings (not from unsaved edits). */
function StatusCard({ saved }: { saved: IntegrationsView }) {
  const services: IntegrationService[] = ['zoom', 'teams', 'googleCalendar'];
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-lg">Integration Status</CardTitle>
      </CardHeader>
      <CardContent>
        <ul className="grid gap-3" aria-label="Integration status">
          {services.map((service) => {
            const connected = isConnected(saved, service);
            return (
              <li key={service} className="flex items-center justify-between gap-3">
                <span className="text-sm font-medium">{integrationNames[service]}</span>
                <Badge variant={connected ? 'default' : 'outline'}>
                  {connected ? <CircleCheck aria-hidden="true" /> : <CircleX aria-hidden="true" />}
                  {connected ? m.connected : m.disconnected}
                </Badge>
              </li>
            );
          })}
        </ul>
      </CardContent>
    </Card>
  );
}

function IntegrationsSkeleton() {
  return (
    <div className="grid gap-6" aria-hidden="true">
      <Skeleton className="h-48 w-full" />
      <Skeleton className="h-40 w-full" />
      <Skeleton className="h-28 w-full" />
    </div>
  );
}

/**
 * A write-only secret: typed as a password, never filled in from the server; says when one is already stored. The rest
 * of the props (the id and aria attributes FormField gives its control) go to the input.
 */
function SecretInput({ stored, onChange, ...input }: Omit<ComponentProps<typeof Input>, 'onChange'> & { stored: boolean; onChange: (value: string) => void }) {
  return (
    <Input
      {...input}
      type="password"
      autoComplete="new-password"
      placeholder={stored ? m.savedSecretPlaceholder : undefined}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}
