import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  automationList,
  campaignList,
  campaignQueued,
  emailAutomation,
  emailTemplate,
  templateList,
  type AutomationId,
  type AutomationList,
  type CampaignList,
  type SaveTemplateBody,
  type SendCampaignBody,
  type TemplateId,
  type TemplateList,
} from '@contracts/campaigns.ts';
import { toast, toastError } from '@/components/ui/toaster.tsx';
import { apiClient } from '@/lib/api-client.ts';
import { IDEMPOTENCY_HEADER } from '@/lib/idempotency-key.ts';
import { emailMessages as m } from '../admin-messages.ts';

/** How often the campaign list is read again while a campaign is still queued or sending. */
export const CAMPAIGN_POLL_MS = 3000;

const inFlight = (list: CampaignList | undefined) => list?.items.some((c) => c.status === 'queued' || c.status === 'sending') ?? false;

/**
 * GET /api/admin/emails: the newest campaigns and the email totals. Read again every few seconds while a campaign is
 * queued or sending (the sending runs in the background), and no longer once all are sent or failed.
 */
export const campaignsQueryOptions = () =>
  queryOptions({
    queryKey: ['admin', 'emails'] as const,
    queryFn: ({ signal }) => apiClient.get('/api/admin/emails', campaignList, { signal }),
    refetchInterval: (query) => (inFlight(query.state.data) ? CAMPAIGN_POLL_MS : false),
  });

/** GET /api/admin/email-templates: the built-in templates, each with its saved edit if any. */
export const templatesQueryOptions = () =>
  queryOptions({
    queryKey: ['admin', 'email-templates'] as const,
    queryFn: ({ signal }) => apiClient.get('/api/admin/email-templates', templateList, { signal }),
  });

/** GET /api/admin/email-automations: the emails the platform sends on its own, with their on/off state. */
export const automationsQueryOptions = () =>
  queryOptions({
    queryKey: ['admin', 'email-automations'] as const,
    queryFn: ({ signal }) => apiClient.get('/api/admin/email-automations', automationList, { signal }),
  });

export interface SendCampaignInput {
  body: SendCampaignBody;
  /** One key per send intent: a retry of the same intent carries the same key, so the server queues it once. */
  idempotencyKey: string;
}

/**
 * POST /api/admin/emails (202: queued). The caller raises the spec's toasts and resets its form; the campaign list is
 * read again so the new campaign shows in Analytics (and its polling starts).
 */
export function useSendCampaign() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: SendCampaignInput) =>
      apiClient.post('/api/admin/emails', campaignQueued, { body, headers: { [IDEMPOTENCY_HEADER]: idempotencyKey } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: campaignsQueryOptions().queryKey }),
  });
}

/** PUT /api/admin/email-templates/{id}: the saved template replaces its card; toasts either way. */
export function useSaveTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: TemplateId; body: SaveTemplateBody }) =>
      apiClient.put(`/api/admin/email-templates/${encodeURIComponent(id)}`, emailTemplate, { body }),
    onSuccess: (saved) => {
      queryClient.setQueryData<TemplateList>(templatesQueryOptions().queryKey, (list) =>
        list ? { items: list.items.map((t) => (t.id === saved.id ? saved : t)) } : list,
      );
      toast.success(m.templateSaved.title, { description: m.templateSaved.description(saved.name) });
    },
    onError: (error) => toastError(error, m.templateSaveFailed),
  });
}

/**
 * PUT /api/admin/email-automations/{id} {enabled}. The switch moves at once (optimistic); a failure puts it back and
 * toasts. The answer (with the current sent count) replaces the row.
 */
export function useSetAutomationEnabled() {
  const queryClient = useQueryClient();
  const key = automationsQueryOptions().queryKey;
  const patch = (id: AutomationId, change: (a: AutomationList['items'][number]) => AutomationList['items'][number]) =>
    queryClient.setQueryData<AutomationList>(key, (list) => (list ? { items: list.items.map((a) => (a.id === id ? change(a) : a)) } : list));

  return useMutation({
    mutationFn: ({ id, enabled }: { id: AutomationId; enabled: boolean }) =>
      apiClient.put(`/api/admin/email-automations/${encodeURIComponent(id)}`, emailAutomation, { body: { enabled } }),
    onMutate: async ({ id, enabled }) => {
      await queryClient.cancelQueries({ queryKey: key });
      const before = queryClient.getQueryData<AutomationList>(key)?.items.find((a) => a.id === id);
      patch(id, (a) => ({ ...a, enabled }));
      return { before };
    },
    onSuccess: (saved) => patch(saved.id, () => saved),
    onError: (error, { id }, context) => {
      const before = context?.before;
      if (before) patch(id, () => before);
      toastError(error, m.automationFailed);
    },
  });
}
