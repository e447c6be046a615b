import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { EmailTemplate } from '@contracts/campaigns.ts';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs.tsx';
import { emailMessages as m } from '../admin-messages.ts';
import { automationsQueryOptions, campaignsQueryOptions, templatesQueryOptions } from '../api/campaigns-queries.ts';
import { EmailAutomationsList } from '../components/email-automations-list.tsx';
import { EmailCampaignsTable } from '../components/email-campaigns-table.tsx';
import { draftFromTemplate, EmailComposeForm, emptyDraft, type EmailDraft } from '../components/email-compose-form.tsx';
import { EmailLoadFailed, EmailLoading } from '../components/email-load-states.tsx';
import { EmailSummaryCards } from '../components/email-summary-cards.tsx';
import { EmailTemplateCards } from '../components/email-template-cards.tsx';

type Tab = 'compose' | 'templates' | 'automations' | 'analytics';

/**
 * /dashboard/admin/emails (SPEC.md "Admin email management", issue 11): the email totals, and tabs to compose a
 * campaign (queued with POST /api/admin/emails and sent in the background), manage the templates and the
 * automations, and follow each campaign's delivery. Each tab loads, fails and retries on its own.
 */
export function AdminEmailsScreen() {
  const campaigns = useQuery(campaignsQueryOptions());
  const templates = useQuery(templatesQueryOptions());
  const automations = useQuery(automationsQueryOptions());
  const [tab, setTab] = useState<Tab>('compose');
  const [draft, setDraft] = useState<EmailDraft>(emptyDraft);
  const templateItems = templates.data?.items ?? [];

  const startFromTemplate = (template: EmailTemplate) => {
    setDraft((current) => draftFromTemplate(current, template));
    setTab('compose');
  };

  return (
    <div className="grid gap-6 *:min-w-0">
      <PageHeader title="Email Campaigns" description="Write to groups of users, manage templates and automations." />

      {campaigns.isPending ? (
        <div className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4" aria-hidden="true">
          {[0, 1, 2, 3].map((i) => (
            <Skeleton key={i} className="h-28" />
          ))}
        </div>
      ) : campaigns.isSuccess ? (
        <EmailSummaryCards totals={campaigns.data.totals} />
      ) : (
        <EmailLoadFailed message={m.figuresFailed} retrying={campaigns.isFetching} onRetry={() => void campaigns.refetch()} />
      )}

      <Tabs value={tab} onValueChange={(value) => setTab(value as Tab)} className="min-w-0">
        <TabsList>
          <TabsTrigger value="compose">Compose Email</TabsTrigger>
          <TabsTrigger value="templates">Templates</TabsTrigger>
          <TabsTrigger value="automations">Automations</TabsTrigger>
          <TabsTrigger value="analytics">Analytics</TabsTrigger>
        </TabsList>

        <TabsContent value="compose">
          <EmailComposeForm draft={draft} onDraftChange={setDraft} templates={templateItems} />
        </TabsContent>

        <TabsContent value="templates">
          {templates.isPending ? (
            <EmailLoading label={m.loadingTemplates} />
          ) : templates.isError ? (
            <EmailLoadFailed message={m.templatesFailed} retrying={templates.isFetching} onRetry={() => void templates.refetch()} />
          ) : (
            <EmailTemplateCards templates={templates.data.items} onUse={startFromTemplate} />
          )}
        </TabsContent>

        <TabsContent value="automations">
          {automations.isPending ? (
            <EmailLoading label={m.loadingAutomations} />
          ) : automations.isError ? (
            <EmailLoadFailed message={m.automationsFailed} retrying={automations.isFetching} onRetry={() => void automations.refetch()} />
          ) : (
            <EmailAutomationsList automations={automations.data.items} templates={templateItems} />
          )}
        </TabsContent>

        <TabsContent value="analytics">
          {campaigns.isPending ? (
            <EmailLoading label={m.loadingCampaigns} />
          ) : campaigns.isError ? (
            <EmailLoadFailed message={m.campaignsFailed} retrying={campaigns.isFetching} onRetry={() => void campaigns.refetch()} />
          ) : (
            <EmailCampaignsTable campaigns={campaigns.data.items} />
          )}
        </TabsContent>
      </Tabs>
    </div>
  );
}
