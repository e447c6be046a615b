import { readFileSync } from 'node:fs';
import { accessToken, api, mailsTo, signIn } from './support/api.ts';
import { checkAndShoot, createTestAccount, expect, test } from './support/cloud.ts';

// Issue 30 point 2 in the browser: a Pro creator with the Zoom stand-in's demo app connected schedules a live session
// in the course editor (the meeting is made at the stand-in); an enrolled learner sees it on 'My Learning' with Join
// still closed (it opens 15 minutes before the start), and on the course's own page, and downloads its calendar file,
// and finds the invitation in the mail with its .ics (issue 30 point 3); the creator then cancels it.

test('a creator schedules a live session; an enrolled learner sees it with Join closed and downloads its .ics', async ({ page, browser, cloud }, testInfo) => {
  test.setTimeout(180_000);
  const creator = await createTestAccount(cloud, 'creator', 'sessions-creator');
  const learner = await createTestAccount(cloud, 'learner', 'sessions-learner');
  const token = await accessToken(cloud, creator.email, creator.password);
  const course = await api<{ id: string }>(cloud, token, 'POST', '/api/courses', { title: `Live painting ${Date.now()}`, description: 'Paint along.' });
  await api(cloud, token, 'POST', `/api/courses/${course.id}/lessons`, { title: 'Warm and cool', kind: 'text', body: '<p>Orange is warm.</p>' });
  await api(cloud, token, 'PATCH', `/api/courses/${course.id}`, { status: 'published' });
  await api(cloud, token, 'POST', `/api/courses/${course.id}/enrollments`, { email: learner.email });

  // The creator schedules it for tomorrow at 18:30 (the browser's time zone), in Zoom, the one tool connected.
  await signIn(page, creator.email, creator.password);
  await expect(page).toHaveURL(/\/dashboard\/creator$/);
  await page.goto(`/dashboard/creator/courses/${course.id}`);
  const panel = page.getByRole('region', { name: 'Live sessions' });
  await expect(panel.getByText('No upcoming sessions.')).toBeVisible();
  // No tool connected yet: the card says where to connect one.
  await expect(panel.getByRole('link', { name: 'Live Session Integrations' })).toHaveAttribute('href', '/dashboard/creator/integrations');
  await expect(panel.getByRole('button', { name: 'Schedule session' })).toHaveCount(0);
  await checkAndShoot(page, testInfo, 'course-editor-sessions-none', { sessions: panel });

  // Zoom connected with the stand-in's demo app (the Integrations screen's own journey is integrations.spec.ts).
  await api(cloud, token, 'PUT', '/api/integrations', {
    zoom: { enabled: true, accountId: cloud.ZoomAccountId, apiKey: cloud.ZoomClientId, apiSecret: cloud.ZoomClientSecret },
    teams: { enabled: false, clientId: '' },
    googleCalendar: { enabled: false, calendarId: '' },
  });
  await page.reload();
  await panel.getByRole('button', { name: 'Schedule session' }).click();
  const dialog = page.getByRole('dialog', { name: 'Schedule session' });
  const tomorrow = new Date(Date.now() + 86_400_000);
  const day = `${tomorrow.getFullYear()}-${String(tomorrow.getMonth() + 1).padStart(2, '0')}-${String(tomorrow.getDate()).padStart(2, '0')}`;
  await dialog.getByLabel('Title').fill('Live Q&A');
  await dialog.getByLabel('Date').fill(day);
  await dialog.getByLabel('Time').fill('18:30');
  await dialog.getByLabel('Duration').selectOption({ label: '1 h 30 min' });
  await expect(dialog.getByLabel('Meeting tool').getByRole('option')).toHaveText(['Zoom']);
  await dialog.getByLabel('Description').fill('Bring your questions and a brush.');
  await checkAndShoot(page, testInfo, 'session-dialog', { dialog });
  await dialog.getByRole('button', { name: 'Schedule session' }).click();
  await expect(dialog).toBeHidden({ timeout: 20_000 });

  const row = panel.getByRole('list', { name: 'Upcoming sessions' }).getByTestId('session-row');
  await expect(row).toContainText('Live Q&A');
  await expect(row).toContainText('18:30');
  await expect(row).toContainText('1 h 30 min');
  await expect(row.getByRole('link', { name: 'Start meeting: Live Q&A (opens in a new tab)' })).toHaveAttribute('target', '_blank');
  await checkAndShoot(page, testInfo, 'course-editor-sessions', { sessions: panel });

  // The meeting exists at the Zoom stand-in.
  const meetings = (await (await fetch(`${cloud.ZoomOAuthUrl}/_stand-in/meetings`)).json()) as { meetings: { topic: string }[] };
  expect(meetings.meetings.map((m) => m.topic)).toContain('Live Q&A');

  // The learner: on 'My Learning', Join closed (it opens tomorrow), and the calendar file.
  const learnerContext = await browser.newContext({ baseURL: cloud.WebUrl });
  const dashboard = await learnerContext.newPage();
  await signIn(dashboard, learner.email, learner.password);
  await expect(dashboard).toHaveURL(/\/dashboard\/learner$/);
  const sessions = dashboard.getByRole('region', { name: 'Upcoming live sessions' });
  const item = sessions.getByTestId('live-session');
  await expect(item).toContainText('Live Q&A');
  await expect(item.getByRole('button', { name: /^Join Live Q&A: Opens / })).toBeDisabled();
  await expect(item.getByRole('link', { name: /Join/ })).toHaveCount(0);
  await checkAndShoot(dashboard, testInfo, 'learner-sessions', { sessions });

  const downloading = dashboard.waitForEvent('download');
  await item.getByRole('button', { name: 'Add Live Q&A to your calendar' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^session-.+\.ics$/);
  const ics = readFileSync((await download.path())!, 'utf8');
  expect(ics).toContain('BEGIN:VCALENDAR');
  expect(ics).toContain('METHOD:REQUEST');
  expect(ics).toContain('SUMMARY:Live Q&A');

  // The course's own page (the player) shows it too, above the lessons.
  await dashboard.goto(`/dashboard/learner/courses/${course.id}`);
  const inPlayer = dashboard.getByRole('region', { name: 'Upcoming live sessions' }).getByTestId('live-session');
  await expect(inPlayer).toContainText('Live Q&A');
  await expect(inPlayer.getByRole('button', { name: /^Join Live Q&A: Opens / })).toBeDisabled();
  await expect(dashboard.getByRole('heading', { level: 2, name: 'Warm and cool' })).toBeVisible();
  await checkAndShoot(dashboard, testInfo, 'learner-course-sessions');
  await learnerContext.close();

  // The learner's invitation arrives in the mail (SES local), its .ics attached: METHOD:REQUEST, SEQUENCE 0.
  const invitation = async () => (await mailsTo(cloud, learner.email)).find((m) => m.subject === 'You are invited to a live session');
  await expect.poll(invitation, { timeout: 45_000 }).toBeDefined();
  const mail = (await invitation())!;
  const file = mail.attachments?.find((a) => a.filename === 'session.ics');
  const attached = Buffer.from(file!.content, 'base64').toString('utf8');
  expect(attached).toContain('METHOD:REQUEST');
  expect(attached).toContain('SEQUENCE:0');
  // The join link (Zoom's /j/), never the host's start link.
  const joinUrl = (await api<{ items: { title: string; joinUrl: string }[] }>(cloud, await accessToken(cloud, learner.email, learner.password), 'GET', '/api/learner/sessions')).items.find((s) => s.title === 'Live Q&A')!.joinUrl;
  expect(mail.body.text).toContain(`Join: ${joinUrl}`);

  // The creator cancels it after a confirmation that names it: the meeting is deleted at Zoom, the session folds below.
  await row.getByRole('button', { name: 'Cancel Live Q&A' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Cancel “Live Q&A”?' });
  await expect(confirm).toContainText('The meeting is deleted in Zoom.');
  await expect(confirm).toContainText('Enrolled learners are emailed the cancellation.');
  await checkAndShoot(page, testInfo, 'session-cancel', { confirm });
  await confirm.getByRole('button', { name: 'Cancel session' }).click();
  await expect(confirm).toBeHidden({ timeout: 20_000 });
  await expect(panel.getByText('No upcoming sessions.')).toBeVisible();
  await panel.getByText('Past and cancelled (1)').click();
  await expect(panel.getByRole('list', { name: 'Past and cancelled sessions' })).toContainText('Cancelled');
});
