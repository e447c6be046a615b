import { Eye, MailCheck, MousePointerClick, Pencil, Send, Users } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select.tsx';
import { SampleDataBadge, StatCard } from '@/components/ui/stat-card.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs.tsx';
import { Textarea } from '@/components/ui/textarea.tsx';
import { toast } from '@/components/ui/toaster.tsx';

// SPEC.md section 6: the campaign recipient groups.
const recipients = [
  { value: 'all', label: 'All users' },
  { value: 'creators', label: 'Creators' },
  { value: 'learners', label: 'Learners' },
  { value: 'leaders', label: 'Group leaders' },
  { value: 'trial', label: 'Creators on trial' },
  { value: 'subscribed', label: 'Subscribed creators' },
] as const;

const templates = [
  { value: 'custom', label: 'Custom', description: 'Start from a blank message.' },
  { value: 'welcome', label: 'Welcome Email', description: 'Greets a new creator and points to their first course.' },
  { value: 'announcement', label: 'Course Announcement', description: 'Announces a new or updated course.' },
  { value: 'newsletter', label: 'Monthly Newsletter', description: 'Platform news, tips and featured courses.' },
] as const;

const automations = [
  { name: 'Welcome series', trigger: 'When a creator signs up', sent: 1240, openRate: '68%' },
  { name: 'Trial ending reminder', trigger: '3 days before a trial ends', sent: 312, openRate: '54%' },
  { name: 'Course completion', trigger: 'When a learner completes a course', sent: 877, openRate: '61%' },
];

const campaignStats = [
  { subject: 'November platform update', recipient: 'All users', sent: 1198, opened: '47%', clicked: '12%' },
  { subject: 'New: course licensing for teams', recipient: 'Creators', sent: 184, opened: '58%', clicked: '21%' },
  { subject: 'Finish your trial setup', recipient: 'Creators on trial', sent: 41, opened: '63%', clicked: '29%' },
];

type Recipient = (typeof recipients)[number]['value'];
type Template = (typeof templates)[number]['value'];

export function AdminEmailsScreen() {
  const [tab, setTab] = useState('compose');
  const [template, setTemplate] = useState<Template>('custom');

  return (
    <div className="grid gap-6 *:min-w-0">
      <PageHeader title="Email Campaigns" description="Write to groups of users, manage templates and automations." actions={<SampleDataBadge />} />

      <section aria-label="Email figures" className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <StatCard label="Subscribers" value="1,234" detail="Reachable addresses" icon={Users} />
        <StatCard label="Emails Sent" value="8,492" detail="Last 30 days" icon={Send} />
        <StatCard label="Open Rate" value="52%" detail="+3% from last month" icon={MailCheck} />
        <StatCard label="Click Rate" value="17%" detail="+1% from last month" icon={MousePointerClick} />
      </section>

      <Tabs value={tab} onValueChange={setTab}>
        <TabsList>
          <TabsTrigger value="compose">Compose Email</TabsTrigger>
          <TabsTrigger value="templates">Templates</TabsTrigger>
          <TabsTrigger value="automations">Automations</TabsTrigger>
          <TabsTrigger value="analytics">Analytics</TabsTrigger>
        </TabsList>

        <TabsContent value="compose">
          <ComposeEmail template={template} onTemplateChange={setTemplate} />
        </TabsContent>

        <TabsContent value="templates">
          <div className="grid gap-4 md:grid-cols-3">
            {templates
              .filter((t) => t.value !== 'custom')
              .map((t) => (
                <Card key={t.value} className="flex flex-col">
                  <CardHeader>
                    <CardTitle asLevel={3} className="text-base">
                      {t.label}
                    </CardTitle>
                    <CardDescription>{t.description}</CardDescription>
                  </CardHeader>
                  <CardFooter className="mt-auto flex-wrap">
                    <Button variant="outline" size="sm" disabled title="Template editing arrives with the admin release">
                      <Pencil aria-hidden="true" />
                      Edit
                    </Button>
                    <Button variant="outline" size="sm" disabled title="Template previews arrive with the admin release">
                      <Eye aria-hidden="true" />
                      Preview
                    </Button>
                    <Button
                      size="sm"
                      onClick={() => {
                        setTemplate(t.value);
                        setTab('compose');
                      }}
                    >
                      Use Template
                    </Button>
                  </CardFooter>
                </Card>
              ))}
          </div>
        </TabsContent>

        <TabsContent value="automations">
          <Card>
            <CardHeader>
              <CardTitle asLevel={3} className="text-base">
                Automations
              </CardTitle>
              <CardDescription>Emails sent on their own when something happens.</CardDescription>
            </CardHeader>
            <CardContent>
              <ul className="divide-y">
                {automations.map((a) => (
                  <li key={a.name} className="flex flex-wrap items-center justify-between gap-3 py-3 first:pt-0 last:pb-0">
                    <div>
                      <p className="text-sm font-medium">{a.name}</p>
                      <p className="text-sm text-muted-foreground">{a.trigger}</p>
                    </div>
                    <div className="flex items-center gap-3 text-sm text-muted-foreground">
                      <span>{a.sent.toLocaleString('en-GB')} sent</span>
                      <span>{a.openRate} opened</span>
                      <Badge variant="secondary">Active</Badge>
                    </div>
                  </li>
                ))}
              </ul>
            </CardContent>
          </Card>
        </TabsContent>

        <TabsContent value="analytics">
          <Card>
            <CardHeader>
              <CardTitle asLevel={3} className="text-base">
                Recent campaigns
              </CardTitle>
              <CardDescription>Delivery and engagement of the last campaigns.</CardDescription>
            </CardHeader>
            <CardContent>
              <Table label="Recent campaigns">
                <TableHeader>
                  <TableRow>
                    <TableHead>Subject</TableHead>
                    <TableHead>Recipients</TableHead>
                    <TableHead className="text-right">Sent</TableHead>
                    <TableHead className="text-right">Opened</TableHead>
                    <TableHead className="text-right">Clicked</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {campaignStats.map((c) => (
                    <TableRow key={c.subject}>
                      <TableCell className="font-medium">{c.subject}</TableCell>
                      <TableCell>{c.recipient}</TableCell>
                      <TableCell className="text-right tabular-nums">{c.sent.toLocaleString('en-GB')}</TableCell>
                      <TableCell className="text-right tabular-nums">{c.opened}</TableCell>
                      <TableCell className="text-right tabular-nums">{c.clicked}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </CardContent>
          </Card>
        </TabsContent>
      </Tabs>
    </div>
  );
}

function ComposeEmail({ template, onTemplateChange }: { template: Template; onTemplateChange: (t: Template) => void }) {
  const [recipient, setRecipient] = useState<Recipient>('all');
  const [subject, setSubject] = useState('');
  const [content, setContent] = useState('');
  const [errors, setErrors] = useState<{ subject?: string; content?: string }>({});
  const noticeId = useId();

  function submit(event: FormEvent): void {
    event.preventDefault();
    const found = {
      ...(subject.trim() ? {} : { subject: 'Enter a subject' }),
      ...(content.trim() ? {} : { content: 'Write the message' }),
    };
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    // The admin issue wires POST /api/admin/emails (SES, batches of 50); until then nothing may look sent.
    toast.info('Sending is not available yet', {
      description: 'Email campaigns can be written here; sending arrives with the admin release. Nothing was sent.',
    });
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle asLevel={3} className="text-base">
          Compose Email
        </CardTitle>
        <CardDescription>Write a campaign for one group of users.</CardDescription>
      </CardHeader>
      <CardContent>
        <form noValidate onSubmit={submit} className="grid gap-4" aria-describedby={noticeId}>
          <div className="grid gap-4 sm:grid-cols-2">
            <div className="grid gap-2">
              <Label htmlFor={`${noticeId}-recipients`}>Recipients</Label>
              <Select value={recipient} onValueChange={(v) => setRecipient(v as Recipient)}>
                <SelectTrigger id={`${noticeId}-recipients`}>
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {recipients.map((r) => (
                    <SelectItem key={r.value} value={r.value}>
                      {r.label}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            </div>
            <div className="grid gap-2">
              <Label htmlFor={`${noticeId}-template`}>Template</Label>
              <Select value={template} onValueChange={(v) => onTemplateChange(v as Template)}>
                <SelectTrigger id={`${noticeId}-template`}>
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {templates.map((t) => (
                    <SelectItem key={t.value} value={t.value}>
                      {t.label}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            </div>
          </div>
          <FormField label="Subject" required error={errors.subject}>
            <Input value={subject} onChange={(e) => setSubject(e.target.value)} required maxLength={200} />
          </FormField>
          <FormField label="Content" required error={errors.content}>
            <Textarea value={content} onChange={(e) => setContent(e.target.value)} required rows={8} />
          </FormField>
          <div className="flex flex-wrap items-center gap-3">
            <Button type="submit">
              <Send aria-hidden="true" />
              Send Email Campaign
            </Button>
            <p id={noticeId} className="text-sm text-muted-foreground">
              Sending arrives with the admin release: for now nothing is sent.
            </p>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
