import type { Page } from '@playwright/test';
import { signIn } from './support/api.ts';
import { checkAndShoot, createTestAccount, expect, test } from './support/cloud.ts';

// AI drafting on the same credits (issue 36) in a real browser against the local cloud and its Bedrock stand-in: a Pro
// creator (200 credits) drafts an outline, creates the course from it, drafts a lesson's body and saves it, generates
// a quiz from that lesson and saves it, and the credits card names each charge. Screenshots of each screen at 1280 px
// and 375 px land in the test's output folder.

const creditsCard = (page: Page) => page.getByRole('region', { name: 'AI Credits' });

test('a creator drafts a course, a lesson and a quiz with AI, saves each, and sees the charges on the credits card', async ({ page, cloud }, testInfo) => {
  test.setTimeout(180_000);
  const { email, password } = await createTestAccount(cloud, 'creator', 'ai-drafting');
  await signIn(page, email, password);
  await expect(page).toHaveURL(/\/dashboard\/creator$/);
  await expect(creditsCard(page).getByTestId('credits-remaining')).toHaveText('200');

  // The outline: its cost on the button, the draft on screen, nothing created until asked.
  await page.goto('/dashboard/creator/create');
  await page.getByLabel('What is the course about?').fill('Watercolour painting for beginners');
  await page.getByLabel('Who is it for? (optional)').fill('Adults who have never painted');
  await page.getByLabel('Lessons').fill('3');
  await page.getByRole('button', { name: 'Draft an outline with AI (5 credits)' }).click();
  const outline = page.getByRole('region', { name: 'Drafted outline' });
  await expect(outline).toContainText('Draft — not saved');
  await expect(outline.getByRole('listitem')).toHaveCount(3);
  await checkAndShoot(page, testInfo, 'ai-outline', { outline });
  await outline.getByRole('button', { name: 'Create course from outline' }).click();
  await expect(page).toHaveURL(/\/dashboard\/creator\/courses\/[^/]+$/);
  const rows = page.getByTestId('lesson-row');
  await expect(rows).toHaveCount(3);

  // The first lesson's body: drafted, marked unsaved, then saved.
  await rows.first().getByRole('button', { name: /^Edit / }).click();
  let dialog = page.getByRole('dialog', { name: 'Edit lesson' });
  await dialog.getByRole('button', { name: 'Draft with AI' }).click();
  await expect(dialog.getByRole('region', { name: 'Draft with AI' })).toContainText('It costs 5 credits.');
  await dialog.getByLabel('What should the lesson cover? (optional)').fill('Wet on wet, and how much water to use');
  await dialog.getByRole('button', { name: 'Draft lesson for 5 credits' }).click();
  await expect(dialog.getByTestId('ai-draft-mark')).toHaveText('Draft — not saved');
  await expect(dialog.getByLabel('Lesson text')).not.toHaveValue('');
  await checkAndShoot(page, testInfo, 'ai-lesson-draft', { dialog });
  await dialog.getByRole('button', { name: 'Save lesson' }).click();
  await expect(dialog).toBeHidden();

  // A quiz from the saved lesson: a new quiz lesson, filled, marked unsaved, then added.
  await rows.first().getByRole('button', { name: /^Edit / }).click();
  await page.getByRole('dialog', { name: 'Edit lesson' }).getByRole('button', { name: 'Generate quiz' }).click();
  dialog = page.getByRole('dialog', { name: 'Add lesson' });
  await expect(dialog.getByRole('radio', { name: 'Quiz' })).toBeChecked();
  await dialog.getByLabel('Questions', { exact: true }).selectOption('3');
  await dialog.getByRole('button', { name: 'Generate 3 questions for 3 credits' }).click();
  await expect(dialog.getByTestId('ai-draft-mark')).toHaveText('Draft — not saved');
  await expect(dialog.getByTestId('quiz-question')).toHaveCount(3);
  await checkAndShoot(page, testInfo, 'ai-quiz', { dialog });
  await dialog.getByRole('button', { name: 'Add lesson' }).click();
  await expect(dialog).toBeHidden();
  await expect(rows).toHaveCount(4);
  await expect(rows.last()).toContainText('Quiz · 3 questions');

  // The credits card: 13 credits spent, each charge by its tool's name, and the price table.
  await page.goto('/dashboard/creator');
  const card = creditsCard(page);
  await expect(card.getByTestId('credits-remaining')).toHaveText('187');
  const history = card.getByTestId('credits-history').getByRole('listitem');
  await expect(history.nth(0)).toContainText('Quiz from a lesson');
  await expect(history.nth(0)).toContainText('−3');
  await expect(history.nth(1)).toContainText('Lesson draft');
  await expect(history.nth(1)).toContainText('−5');
  await expect(history.nth(2)).toContainText('Course outline');
  await expect(history.nth(2)).toContainText('−5');
  await expect(history.nth(3)).toContainText('Monthly credits');
  await expect(card.getByTestId('ai-prices')).toContainText('Landing page15 credits');
  await checkAndShoot(page, testInfo, 'ai-credits-card', { card });
});
