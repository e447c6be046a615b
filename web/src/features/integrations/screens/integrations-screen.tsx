import { useQuery } from '@tanstack/react-query';
import { CalendarDays, CircleCheck, CircleX, MonitorPlay, PlugZap, Users } from 'lucide-react';
import { useEffect, useId, useState, type ComponentProps, type FormEvent, type ReactNode } from 'react';
import {
  integrationNames,
  isConnected,
  serviceOfProvider,
  type IntegrationProvider,
  type IntegrationService,
  type IntegrationsView,
  type SaveIntegrationsBody,
} from '@contracts/integrations.ts';
import { PlanRequiredCard } from '@/components/plan-gate.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { LoadFailedCard } from '@/components/ui/load-failed.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { Switch } from '@/components/ui/switch.tsx';
import { toast } from '@/components/ui/toaster.tsx';
import { ApiError } from '@/lib/api-error.ts';
import { useEntitlements } from '@/lib/entitlements.ts';
import { integrationsQueryOptions, useSaveIntegrations, useTestIntegration } from '../api/integrations-queries.ts';
import { GoogleConnect } from '../components/google-connect.tsx';
import { integrationsMessages as m } from '../integrations-messages.ts';

/** The form: the saved settings with the secrets as new values to send (empty = keep the saved one). */
interface Form {
  zoom: { enabled: boolean; apiKey: string; apiSecret: string; accountId: string };
  teams: { enabled: boolean; tenantId: string; clientId: string; clientSecret: string; organizerEmail: string };
  googleCalendar: { enabled: boolean; calendarId: string };
}
type Errors = Partial<Record<string, string>>;

const formOf = (view: IntegrationsView): Form => ({
  zoom: { enabled: view.zoom.enabled, apiKey: view.zoom.apiKey, apiSecret: '', accountId: view.zoom.accountId },
  teams: { enabled: view.teams.enabled, tenantId: view.teams.tenantId, clientId: view.teams.clientId, clientSecret: '', organizerEmail: view.teams.organizerEmail },
  googleCalendar: { enabled: view.googleCalendar.enabled, calendarId: view.googleCalendar.calendarId },
});

/** A blank secret is left out of the body: the server keeps the saved one. */
const bodyOf = (form: Form): SaveIntegrationsBody => ({
  zoom: {
    enabled: form.zoom.enabled,
    apiKey: form.zoom.apiKey,
    accountId: form.zoom.accountId,
    ...(form.zoom.apiSecret === '' ? {} : { apiSecret: form.zoom.apiSecret }),
  },
  teams: {
    enabled: form.teams.enabled,
    tenantId: form.teams.tenantId,
    clientId: form.teams.clientId,
    organizerEmail: form.teams.organizerEmail,
    ...(form.teams.clientSecret === '' ? {} : { clientSecret: form.teams.clientSecret }),
  },
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
  need(form.zoom.enabled, form.zoom.accountId.trim() !== '', 'zoom.accountId', 'zoom', 'Account ID');
  need(form.teams.enabled, form.teams.tenantId.trim() !== '', 'teams.tenantId', 'teams', 'Tenant ID');
  need(form.teams.enabled, form.teams.clientId.trim() !== '', 'teams.clientId', 'teams', 'Client ID');
  need(form.teams.enabled, form.teams.clientSecret !== '' || saved.teams.clientSecretSet, 'teams.clientSecret', 'teams', 'Client Secret');
  need(form.teams.enabled, form.teams.organizerEmail.trim() !== '', 'teams.organizerEmail', 'teams', 'Organizer email');
  need(form.googleCalendar.enabled, form.googleCalendar.calendarId.trim() !== '', 'googleCalendar.calendarId', 'googleCalendar', 'Calendar ID');
  return errors;
};

/** /dashboard/creator/integrations: Zoom, Microsoft Teams and Google Calendar, and whether each is connected. */
export function IntegrationsScreen() {
  const query = useQuery(integrationsQueryOptions());
  // Without a plan (issue 29) the saved settings are shown read-only: saving needs a plan.
  const readOnly = useEntitlements().locked('courses');

  useEffect(() => {
    if (query.isError) toast.error(m.loadFailed.title, { description: m.loadFailed.description });
  }, [query.isError]);

  return (
    <div className="grid gap-6 *:min-w-0">
      <PageHeader title="Live Session Integrations" description="Connect the tools you run live sessions with." />
      {readOnly && <PlanRequiredCard plan="starter" title="Choose a plan to connect integrations" reason={m.noPlan} />}
      {query.isPending ? (
        <IntegrationsSkeleton />
      ) : query.isError ? (
        <LoadFailedCard title="Your integrations could not be loaded" onRetry={() => void query.refetch()} retrying={query.isFetching} />
      ) : (
        <fieldset disabled={readOnly} aria-label={readOnly ? 'Your integrations (read-only)' : undefined} className="min-w-0">
          <IntegrationsForm saved={query.data} />
        </fieldset>
      )}
    </div>
  );
}

/** The form starts from the saved settings, and again from each save's answer (the secret fields empty again). */
function IntegrationsForm({ saved }: { saved: IntegrationsView }) {
  const save = useSaveIntegrations();
  const test = useTestIntegration();
  const [form, setForm] = useState<Form>(() => formOf(saved));
  const [errors, setErrors] = useState<Errors>({});
  /** The last test's answer per provider, shown under its button until the next test or save. */
  const [tested, setTested] = useState<Partial<Record<IntegrationProvider, { ok: boolean; message: string }>>>({});

  const runTest = (provider: IntegrationProvider) => {
    const name = integrationNames[serviceOfProvider[provider]];
    setTested((current) => ({ ...current, [provider]: undefined }));
    test.mutate(provider, {
      onSuccess: (answer) => {
        if (answer.ok) toast.success(m.testPassed(name).title, { description: m.testPassed(name).description });
        setTested((current) => ({ ...current, [provider]: answer.ok ? { ok: true, message: m.testPassed(name).description } : { ok: false, message: answer.error ?? m.testFailed(name) } }));
      },
      onError: (error) => {
        const message = error instanceof ApiError && error.code !== 'NETWORK_FAILED' && error.code !== 'INVALID_RESPONSE' ? error.message : `${m.testFailed(name)}: try again.`;
        setTested((current) => ({ ...current, [provider]: { ok: false, message } }));
      },
    });
  };
  const testButton = (provider: IntegrationProvider) => (
    <TestConnection
      name={integrationNames[serviceOfProvider[provider]]}
      pending={test.isPending && test.variables === provider}
      result={tested[provider]}
      onTest={() => runTest(provider)}
    />
  );

  const update = <S extends keyof Form>(service: S, changes: Partial<Form[S]>) => {
    setForm((current) => ({ ...current, [service]: { ...current[service], ...changes } }));
    setErrors((current) => Object.fromEntries(Object.entries(current).filter(([key]) => !key.startsWith(`${service}.`))));
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const missing = missingFields(form, saved);
    setErrors(missing);
    if (Object.keys(missing).length > 0) return;
    save.mutate(bodyOf(form), {
      onSuccess: (view) => {
        setForm(formOf(view));
        setTested({});
      },
    });
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
          footer={testButton('zoom')}
        >
          <FormField label="Account ID" error={errors['zoom.accountId']} description="From your Server-to-Server OAuth app's App Credentials in the Zoom App Marketplace.">
            <Input value={form.zoom.accountId} disabled={!form.zoom.enabled} autoComplete="off" onChange={(e) => update('zoom', { accountId: e.target.value })} />
          </FormField>
          <FormField label="API Key" error={errors['zoom.apiKey']} description="The app's Client ID.">
            <Input value={form.zoom.apiKey} disabled={!form.zoom.enabled} autoComplete="off" onChange={(e) => update('zoom', { apiKey: e.target.value })} />
          </FormField>
          <FormField label="API Secret" error={errors['zoom.apiSecret']} description="The app's Client Secret.">
            <SecretInput
              value={form.zoom.apiSecret}
              disabled={!form.zoom.enabled}
              stored={saved.zoom.apiSecretSet}
              onChange={(apiSecret) => update('zoom', { apiSecret })}
            />
          </FormField>
        </ServiceCard>

        <ServiceCard
          icon={<Users aria-hidden="true" />}
          title="Microsoft Teams"
          description="Schedule Teams meetings for your live sessions (a Microsoft Entra app registration with Graph access)."
          enabled={form.teams.enabled}
          onEnabledChange={(enabled) => update('teams', { enabled })}
          footer={testButton('teams')}
        >
          <FormField label="Tenant ID" error={errors['teams.tenantId']}>
            <Input value={form.teams.tenantId} disabled={!form.teams.enabled} autoComplete="off" onChange={(e) => update('teams', { tenantId: e.target.value })} />
          </FormField>
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
          <FormField label="Organizer email" error={errors['teams.organizerEmail']} description="The Microsoft 365 mailbox the meetings are made in.">
            <Input
              type="email"
              value={form.teams.organizerEmail}
              disabled={!form.teams.enabled}
              autoComplete="off"
              onChange={(e) => update('teams', { organizerEmail: e.target.value })}
            />
          </FormField>
        </ServiceCard>

        <ServiceCard
          icon={<CalendarDays aria-hidden="true" />}
          title="Google Calendar"
          description="Add your live sessions to a Google Calendar."
          enabled={form.googleCalendar.enabled}
          onEnabledChange={(enabled) => update('googleCalendar', { enabled })}
          footer={testButton('google')}
        >
          <FormField label="Calendar ID" error={errors['googleCalendar.calendarId']}>
            <Input
              value={form.googleCalendar.calendarId}
              disabled={!form.googleCalendar.enabled}
              autoComplete="off"
              onChange={(e) => update('googleCalendar', { calendarId: e.target.value })}
            />
          </FormField>
          <GoogleConnect consented={saved.googleCalendar.consented} />
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
  footer?: ReactNode;
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
      <CardContent className="grid gap-4">
        {props.children}
        {props.footer}
      </CardContent>
    </Card>
  );
}

/** 'Test connection': a real check of the saved settings; its answer stays under the button (announced politely). */
function TestConnection(props: { name: string; pending: boolean; result: { ok: boolean; message: string } | undefined; onTest: () => void }) {
  return (
    <div className="grid gap-2 border-t pt-4">
      <div className="flex flex-wrap items-center gap-3">
        <Button type="button" variant="outline" loading={props.pending} onClick={props.onTest} aria-label={`${m.testConnection}: ${props.name}`}>
          {!props.pending && <PlugZap aria-hidden="true" />}
          {props.pending ? m.testing : m.testConnection}
        </Button>
        <span className="text-muted-foreground text-sm">{m.testHint}</span>
      </div>
      <p role="status" aria-live="polite" className={props.result?.ok ? 'text-sm text-emerald-700' : 'text-destructive text-sm'}>
        {props.result?.message}
      </p>
    </div>
  );
}

/**
 * Connected or Disconnected per service, from the saved settings and the last real check (not from unsaved edits);
 * under a switched-on service that is not connected, the provider's reason.
 */
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
            const reason = saved[service].status === 'error' ? saved[service].error : undefined;
            return (
              <li key={service} className="grid gap-1">
                <div className="flex items-center justify-between gap-3">
                  <span className="text-sm font-medium">{integrationNames[service]}</span>
                  <Badge variant={connected ? 'default' : 'outline'}>
                    {connected ? <CircleCheck aria-hidden="true" /> : <CircleX aria-hidden="true" />}
                    {connected ? m.connected : m.disconnected}
                  </Badge>
                </div>
                {reason && <p className="text-destructive text-xs break-words">{reason}</p>}
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
