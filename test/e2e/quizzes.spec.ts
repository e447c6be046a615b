import { accessToken, api, mailsTo, signIn, startJob } from './support/api.ts';
import { checkAndShoot, createTestAccount, expect, test } from './support/cloud.ts';

// Issue 15 in the browser: a creator builds a quiz lesson in the course editor; a learner gives the name for their
// certificates, fails the quiz once, passes it and so completes the course; the certificate email's link opens its public page (Valid); the creator sees the score
// in the CRM, revokes the certificate with a reason, and the public page says Revoked.

test('a creator builds a quiz; a learner fails it, passes it and completes the course; the CRM shows the score', async ({ page, browser, cloud }, testInfo) => {
  test.setTimeout(300_000);
  const creator = await createTestAccount(cloud, 'creator', 'quiz-creator');
  const learner = await createTestAccount(cloud, 'learner', 'quiz-learner');
  const token = await accessToken(cloud, creator.email, creator.password);
  const title = `Colour mixing ${Date.now()}`;
  const course = await api<{ id: string }>(cloud, token, 'POST', '/api/courses', { title, description: 'Mix paint with confidence.' });
  await api(cloud, token, 'POST', `/api/courses/${course.id}/lessons`, { title: 'Warm and cool', kind: 'text', body: '<p>Orange is warm.</p>' });

  // The creator adds the quiz in the course editor: one single-choice question, one multiple-choice, two attempts.
  await signIn(page, creator.email, creator.password);
  await expect(page).toHaveURL(/\/dashboard\/creator$/);
  await page.goto(`/dashboard/creator/courses/${course.id}`);
  await page.getByRole('button', { name: 'Add lesson' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add lesson' });
  await dialog.getByLabel('Lesson title').fill('Check your colours');
  await dialog.getByRole('radio', { name: 'Quiz' }).check();
  await dialog.getByLabel('Pass mark (%)').fill('100');
  await dialog.getByLabel('Attempt limit').fill('2');
  const questions = dialog.getByTestId('quiz-question');
  const first = questions.nth(0);
  await first.getByLabel('Question text').fill('Which colour is warm?');
  await first.getByLabel('Option 1', { exact: true }).fill('Blue');
  await first.getByLabel('Option 2', { exact: true }).fill('Orange');
  await first.getByLabel('Option 2 is the right answer').check();
  await dialog.getByRole('button', { name: 'Add question' }).click();
  const second = questions.nth(1);
  await second.getByLabel('Question text').fill('Which are primary colours?');
  await second.getByLabel('Type').selectOption({ label: 'Multiple choice' });
  await second.getByLabel('Option 1', { exact: true }).fill('Red');
  await second.getByLabel('Option 2', { exact: true }).fill('Green');
  await second.getByRole('button', { name: 'Add option' }).click();
  await second.getByLabel('Option 3', { exact: true }).fill('Blue');
  await second.getByLabel('Option 1 is a right answer').check();
  await second.getByLabel('Option 3 is a right answer').check();
  await checkAndShoot(page, testInfo, 'quiz-editor', { region: dialog });
  await dialog.getByRole('button', { name: 'Add lesson' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Quiz · 2 questions · pass 100%')).toBeVisible();
  await api(cloud, token, 'PATCH', `/api/courses/${course.id}`, { status: 'published' });
  await api(cloud, token, 'POST', `/api/courses/${course.id}/enrollments`, { email: learner.email });

  // The learner reads the lesson, then takes the quiz: a wrong answer first, then the right ones.
  const learnerContext = await browser.newContext({ baseURL: cloud.WebUrl });
  const player = await learnerContext.newPage();
  await signIn(player, learner.email, learner.password);
  await expect(player).toHaveURL(/\/dashboard\/learner$/);
  // First, on their profile, the name their certificates will carry.
  await player.goto('/dashboard/learner/profile');
  await player.getByLabel('Name on certificates').fill('Ann Colourist');
  await player.getByRole('button', { name: 'Save name' }).click();
  await expect(player.getByText('Profile saved')).toBeVisible();
  await player.goto('/dashboard/learner');
  await player.getByRole('link', { name: `Continue ${title}` }).click();
  await player.getByRole('button', { name: 'Mark complete' }).click();
  await expect(player.getByTestId('course-progress')).toHaveText('50% complete');
  await player.getByRole('link', { name: /2\. Check your colours/ }).click();
  const quiz = player.getByRole('form', { name: 'Quiz' });
  await expect(player.getByRole('button', { name: 'Mark complete' })).toHaveCount(0);
  await quiz.getByRole('group', { name: 'Which colour is warm?' }).getByLabel('Blue').check();
  await quiz.getByRole('group', { name: 'Which are primary colours?' }).getByLabel('Red').check();
  await quiz.getByRole('group', { name: 'Which are primary colours?' }).getByLabel('Blue').check();
  await quiz.getByRole('button', { name: 'Submit answers' }).click();
  await expect(player.getByText('Score: 50%')).toBeVisible();
  await expect(player.getByText('1 attempt left').first()).toBeVisible();
  await checkAndShoot(player, testInfo, 'quiz-failed');
  await player.getByRole('button', { name: 'Try again' }).click();
  await quiz.getByRole('group', { name: 'Which colour is warm?' }).getByLabel('Orange').check();
  await quiz.getByRole('group', { name: 'Which are primary colours?' }).getByLabel('Red').check();
  await quiz.getByRole('group', { name: 'Which are primary colours?' }).getByLabel('Blue').check();
  await quiz.getByRole('button', { name: 'Submit answers' }).click();
  await expect(player.getByText('Score: 100%')).toBeVisible();
  await expect(player.getByTestId('course-progress')).toHaveText('100% complete');
  await checkAndShoot(player, testInfo, 'quiz-passed');

  // The certificate: the issuing job (every minute; its run started now) emails it; the link opens the public page,
  // which says Valid.
  const subject = 'Your certificate from Course Platform';
  await startJob(cloud, 'certificate-issuer');
  await expect.poll(async () => (await mailsTo(cloud, learner.email)).some((m) => m.subject === subject), { timeout: 90_000, intervals: [1_000] }).toBe(true);
  const email = (await mailsTo(cloud, learner.email)).find((m) => m.subject === subject)!;
  const verifyLink = /(https?:\/\/\S+\/verify\/[\w-]+)/.exec(email.body.text ?? '')?.[1];
  expect(verifyLink, 'the verification link in the email').toBeDefined();
  expect(email.body.text).toContain('https://www.linkedin.com/profile/add?');
  await player.goto('/dashboard/learner/certificates');
  await expect(player.getByText(title)).toBeVisible();
  await expect(player.getByRole('link', { name: /Add to LinkedIn/ })).toHaveAttribute('href', /linkedin\.com\/profile\/add/);
  await checkAndShoot(player, testInfo, 'certificates');
  const certificatePath = new URL(verifyLink!).pathname;
  await player.goto(certificatePath);
  const verdict = player.getByRole('region', { name: 'Verification result' });
  await expect(verdict).toContainText('Valid');
  await expect(player.getByText(title).first()).toBeVisible();
  await expect(player.getByText('Ann Colourist').first()).toBeVisible();
  await checkAndShoot(player, testInfo, 'certificate-valid');
  await learnerContext.close();

  // The creator sees the score in the learner's CRM details.
  await page.goto('/dashboard/creator/crm');
  const row = page.getByRole('row').filter({ hasText: learner.email });
  await row.getByRole('button', { name: `View Details of ${learner.email}` }).click();
  const panel = page.getByRole('dialog');
  await expect(panel).toContainText('Quiz scores');
  await expect(panel).toContainText('Check your colours');
  await expect(panel).toContainText('Passed');
  await page.keyboard.press('Escape');

  // The creator revokes it from the course editor, with a reason; its public page now says Revoked.
  await page.goto(`/dashboard/creator/courses/${course.id}`);
  const certificates = page.getByRole('region', { name: 'Certificates' });
  await expect(certificates).toContainText(learner.email);
  await certificates.getByRole('button', { name: `Revoke ${learner.email}'s certificate` }).click();
  const revoke = page.getByRole('dialog', { name: 'Revoke certificate' });
  await revoke.getByLabel(/^Reason/).fill('Answers were shared with another learner.');
  await revoke.getByRole('button', { name: 'Revoke certificate' }).click();
  await expect(revoke).toBeHidden();
  await expect(certificates).toContainText('Revoked');
  // The panel pages (issue 28): shot as a long list shows it, its answer given a next page so 'Load more' is there.
  await page.route('**/api/courses/*/certificates', async (route) => {
    const answer = await route.fetch();
    await route.fulfill({ response: answer, json: { ...((await answer.json()) as object), nextCursor: 'shot-only' } });
  });
  await page.reload();
  await expect(certificates.getByRole('button', { name: 'Load more' })).toBeVisible();
  await checkAndShoot(page, testInfo, 'course-certificates', { certificates });
  await page.unroute('**/api/courses/*/certificates');
  const visitorContext = await browser.newContext({ baseURL: cloud.WebUrl });
  const visitor = await visitorContext.newPage();
  await visitor.goto(certificatePath);
  await expect(visitor.getByRole('region', { name: 'Verification result' })).toContainText('Revoked');
  await expect(visitor.getByText('Answers were shared with another learner.')).toBeVisible();
  await checkAndShoot(visitor, testInfo, 'certificate-revoked');
  await visitorContext.close();
});
