import { accessToken, api, signIn } from './support/api.ts';
import { checkAndShoot, createTestAccount, expect, test } from './support/cloud.ts';

// Lesson discussions (issue 35 point 1) in a real browser: two learners and the creator hold a thread under a lesson
// (a question in the player, a reply from the other learner, the creator's answer and pin from the course editor's
// Discussions, reached from the dashboard's unanswered questions, which the answer empties). The reply emails and the XSS corpus are proven against the local cloud by
// test/integration/discussions.test.ts. Screenshots at 1280 px and 375 px.

test('two learners and the creator hold a thread under a lesson', async ({ page, browser, cloud }, testInfo) => {
  test.setTimeout(180_000);
  const creator = await createTestAccount(cloud, 'creator', 'talk-creator');
  const token = await accessToken(cloud, creator.email, creator.password);
  const course = await api<{ id: string }>(cloud, token, 'POST', '/api/courses', { title: 'Pottery basics', description: 'Wedging, centring and pulling.' });
  await api(cloud, token, 'POST', `/api/courses/${course.id}/lessons`, { title: 'Wedging the clay', kind: 'text', body: '<p>Knead the clay until it is even.</p>' });
  await api(cloud, token, 'PATCH', `/api/courses/${course.id}`, { status: 'published' });
  const ann = await createTestAccount(cloud, 'learner', 'talk-ann');
  const bob = await createTestAccount(cloud, 'learner', 'talk-bob');
  for (const learner of [ann, bob]) await api(cloud, token, 'POST', `/api/courses/${course.id}/enrollments`, { email: learner.email });

  // Ann asks under the lesson.
  await signIn(page, ann.email, ann.password);
  await expect(page).toHaveURL(/\/dashboard\/learner$/);
  await page.goto(`/dashboard/learner/courses/${course.id}`);
  const discussion = page.getByRole('region', { name: 'Discussion' });
  await expect(discussion.getByText('No comments yet. Start the discussion.')).toBeVisible();
  await discussion.getByLabel('Ask a question or share a thought').fill('How **wet** should the clay be? See [my photo](https://example.com/photo).');
  await discussion.getByRole('button', { name: 'Post' }).click();
  const thread = discussion.getByRole('article', { name: /^Comment by / });
  await expect(thread.getByText('wet', { exact: true })).toBeVisible();
  await expect(thread.getByRole('link', { name: 'my photo' })).toHaveAttribute('rel', 'nofollow ugc noopener');

  // Bob replies in her thread.
  const bobPage = await (await browser.newContext({ baseURL: cloud.WebUrl })).newPage();
  await signIn(bobPage, bob.email, bob.password);
  await expect(bobPage).toHaveURL(/\/dashboard\/learner$/);
  await bobPage.goto(`/dashboard/learner/courses/${course.id}`);
  const bobThread = bobPage.getByRole('region', { name: 'Discussion' }).getByRole('article').first();
  await bobThread.getByRole('button', { name: 'Reply' }).click();
  await bobThread.getByLabel(/^Reply to /).fill('Same question here!');
  await bobThread.getByRole('list', { name: 'Replies' }).getByRole('button', { name: 'Reply' }).click();
  await expect(bobThread.getByText('Same question here!')).toBeVisible();
  await bobPage.close();

  // The creator finds Ann's question waiting on the dashboard and goes to answer it.
  const creatorPage = await (await browser.newContext({ baseURL: cloud.WebUrl })).newPage();
  await signIn(creatorPage, creator.email, creator.password);
  await expect(creatorPage).toHaveURL(/\/dashboard\/creator$/);
  const questions = creatorPage.getByRole('region', { name: 'Unanswered questions' });
  const waiting = questions.getByRole('listitem');
  await expect(waiting).toHaveCount(1);
  await expect(waiting).toContainText('Pottery basics · Wedging the clay');
  await expect(waiting).toContainText('How wet should the clay be? See my photo.');
  await expect(waiting).toContainText('Asked just now · 1 reply');
  await checkAndShoot(creatorPage, testInfo, 'questions-dashboard', { questions });
  await waiting.getByRole('link', { name: /^Answer / }).click();
  await expect(creatorPage).toHaveURL(new RegExp(`/dashboard/creator/courses/${course.id}\\?discussion=`));
  const panel = creatorPage.getByRole('region', { name: 'Discussions' });
  await expect(panel).toBeInViewport();
  await creatorPage.screenshot({ path: testInfo.outputPath('questions-answer-opened-1280.png') });

  // The creator answers and pins it from the course editor's Discussions.
  const creatorThread = panel.getByRole('article').first();
  await expect(creatorThread.getByText('Same question here!')).toBeVisible();
  await creatorThread.getByRole('button', { name: 'Reply' }).click();
  await creatorThread.getByLabel(/^Reply to /).fill('Like *leather*: firm, but it still bends.');
  await creatorThread.getByRole('list', { name: 'Replies' }).getByRole('button', { name: 'Reply' }).click();
  await expect(creatorThread.getByText('leather')).toBeVisible();
  await creatorThread.getByRole('button', { name: 'Pin' }).click();
  await expect(creatorThread.getByText('Pinned')).toBeVisible();
  await checkAndShoot(creatorPage, testInfo, 'discussions-creator', { panel });
  // Answered, it leaves the dashboard's list.
  await creatorPage.goto('/dashboard/creator');
  await expect(questions.getByText('No unanswered questions. Nice work.')).toBeVisible();
  await checkAndShoot(creatorPage, testInfo, 'questions-dashboard-empty', { questions });
  await creatorPage.close();

  // Ann sees both replies, the creator marked, the thread pinned.
  await page.reload();
  await expect(thread.getByText('Pinned')).toBeVisible();
  await expect(thread.getByText('Creator', { exact: true })).toBeVisible();
  await expect(thread.getByRole('list', { name: 'Replies' }).getByRole('listitem')).toHaveCount(2);
  await checkAndShoot(page, testInfo, 'discussions-learner', { discussion });
});
