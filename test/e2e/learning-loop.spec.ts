import { accessToken, api, mailsTo, signIn } from './support/api.ts';
import { checkAndShoot, createTestAccount, expect, test } from './support/cloud.ts';

// Issue 10's loop in the browser: a creator builds a course and invites a learner, the learner takes a lesson, and
// the creator follows them in the CRM and reaches out. The course is built through the API (the builder's screens
// have their own tests); everything the learner and the CRM do happens in the browser.

test('a creator builds and shares a course, a learner takes a lesson, the creator follows up in the CRM', async ({ page, cloud }, testInfo) => {
  test.setTimeout(180_000);

  // The creator builds a course with two lessons, publishes it and invites a new learner by email.
  const creator = await createTestAccount(cloud, 'creator', 'loop-creator');
  const token = await accessToken(cloud, creator.email, creator.password);
  const title = `Watercolour basics ${Date.now()}`;
  const course = await api<{ id: string }>(cloud, token, 'POST', '/api/courses', { title, description: 'Paint with water, step by step.' });
  await api(cloud, token, 'POST', `/api/courses/${course.id}/lessons`, {
    title: 'Your first wash',
    kind: 'text',
    body: '<h2>Brushes</h2><p>Start with a <strong>round</strong> brush and plenty of water.</p><ul><li>Wet the paper</li><li>Load the brush</li></ul>',
  });
  await api(cloud, token, 'POST', `/api/courses/${course.id}/lessons`, { title: 'Wet on wet', kind: 'video', videoUrl: 'https://youtu.be/dQw4w9WgXcQ' });
  await api(cloud, token, 'PATCH', `/api/courses/${course.id}`, { status: 'published' });
  const learnerEmail = `loop-learner-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const invited = await api<{ invited: boolean }>(cloud, token, 'POST', `/api/courses/${course.id}/enrollments`, { email: learnerEmail });
  expect(invited.invited).toBe(true);

  // The invitation lands in the SES store with the course name and a temporary password.
  const invitation = (await mailsTo(cloud, learnerEmail)).find((mail) => mail.subject === "You're invited to a course on Course Platform");
  expect(invitation, 'the invitation email').toBeDefined();
  const temporaryPassword = /Temporary password: (\S+)/.exec(invitation!.body.text ?? '')?.[1];
  expect(temporaryPassword, 'a temporary password in the invitation').toBeDefined();

  // The learner signs in with it, chooses a password, and opens the course from 'My Learning'.
  await signIn(page, learnerEmail, temporaryPassword!);
  await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
  await page.getByLabel('New password', { exact: true }).fill('Chosen1234');
  await page.getByLabel('Confirm new password').fill('Chosen1234');
  await page.getByRole('button', { name: 'Set password and continue' }).click();
  await expect(page).toHaveURL(/\/dashboard\/learner$/);
  await expect(page.getByRole('region', { name: 'Key figures' })).toContainText('Enrolled Courses1');
  await page.getByRole('link', { name: `Continue ${title}` }).click();

  // The player: the first lesson, 'Mark complete', the bar at 50%.
  await expect(page.getByRole('heading', { level: 2, name: 'Your first wash' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Brushes' })).toBeVisible();
  await page.getByRole('button', { name: 'Mark complete' }).click();
  await expect(page.getByTestId('course-progress')).toHaveText('50% complete');
  await expect(page.getByRole('navigation', { name: 'Lessons' }).getByRole('link', { name: '1. Your first wash, completed' })).toBeVisible();
  await checkAndShoot(page, testInfo, 'player');

  // Each lesson is read on its own as it is opened: one that fails to load says so beside the lesson list, and loads
  // on 'Try again'.
  let failLessonReads = true;
  await page.route('**/api/learner/courses/*/lessons/*', (route) =>
    failLessonReads ? route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: { code: 'INTERNAL', message: 'Down.' } }) }) : route.fallback(),
  );
  await page.getByRole('link', { name: 'Next lesson' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Wet on wet' })).toBeVisible();
  await expect(page.getByRole('alert')).toContainText('The lesson could not be loaded.');
  await checkAndShoot(page, testInfo, 'player-lesson-failed');
  failLessonReads = false;
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByTitle('Wet on wet')).toBeVisible();
  await page.unroute('**/api/learner/courses/*/lessons/*');

  // The creator signs in (the learner's session cleared), sees 50% in the CRM, saves a note and sends encouragement.
  await page.context().clearCookies();
  await page.evaluate('window.localStorage.clear()');
  const crm = page;
  await signIn(crm, creator.email, creator.password);
  await expect(crm).toHaveURL(/\/dashboard\/creator$/);
  await crm.goto('/dashboard/creator/crm');
  const row = crm.getByRole('row').filter({ hasText: learnerEmail });
  await expect(row).toContainText(title);
  await expect(row).toContainText('50%');
  await checkAndShoot(crm, testInfo, 'crm');

  await row.getByRole('button', { name: `View Details of ${learnerEmail}` }).click();
  const panel = crm.getByRole('dialog');
  await expect(panel.getByRole('progressbar', { name: `${title}: 50% complete` })).toBeVisible();
  await panel.getByRole('textbox', { name: 'Notes' }).fill('Finished the first wash quickly; suggest the video next.');
  await panel.getByRole('button', { name: 'Save Notes' }).click();
  await expect(crm.getByText('Learner notes have been updated successfully.')).toBeVisible();

  await panel.getByRole('button', { name: 'Send Encouragement' }).click();
  await expect(crm.getByText('Your recommendation has been sent to the learner.')).toBeVisible();
  await expect(panel.getByRole('listitem').filter({ hasText: 'Motivational message' })).toBeVisible();
  await checkAndShoot(crm, testInfo, 'crm-details');

  const encouragement = (await mailsTo(cloud, learnerEmail)).find((mail) => (mail.body.text ?? mail.body.html ?? '').includes('Motivational message'));
  expect(encouragement, 'the encouragement email in the SES store').toBeDefined();
});
