import { accessToken, api, signIn } from './support/api.ts';
import { checkAndShoot, createTestAccount, expect, test } from './support/cloud.ts';

// Issue 30 point 4 in the browser: a session changed while Zoom refuses (here: Zoom switched off in Live Session
// Integrations after the session was made) is saved all the same and says so plainly under the session, with Zoom's
// reason; the creator can still cancel it, and the cancellation waits for Zoom the same way.

test('a change Zoom has not made yet shows under the session with the reason; the session can still be cancelled', async ({ page, cloud }, testInfo) => {
  test.setTimeout(120_000);
  const creator = await createTestAccount(cloud, 'creator', 'sessions-pending');
  const token = await accessToken(cloud, creator.email, creator.password);
  const course = await api<{ id: string }>(cloud, token, 'POST', '/api/courses', { title: `Pending sessions ${Date.now()}`, description: 'Live.' });
  const zoom = { enabled: true, accountId: cloud.ZoomAccountId, apiKey: cloud.ZoomClientId, apiSecret: cloud.ZoomClientSecret };
  const others = { teams: { enabled: false, clientId: '' }, googleCalendar: { enabled: false, calendarId: '' } };
  await api(cloud, token, 'PUT', '/api/integrations', { zoom, ...others });
  const startsAt = new Date(Date.now() + 3 * 86_400_000);
  startsAt.setUTCHours(17, 0, 0, 0);
  await api(cloud, token, 'POST', `/api/courses/${course.id}/sessions`, { title: 'Colour theory Q&A', startsAt: startsAt.toISOString(), durationMinutes: 60, provider: 'zoom' });
  // Zoom switched off: the provider refuses every change from now on.
  await api(cloud, token, 'PUT', '/api/integrations', { zoom: { ...zoom, enabled: false, apiSecret: undefined }, ...others });

  await signIn(page, creator.email, creator.password);
  await expect(page).toHaveURL(/\/dashboard\/creator$/);
  await page.goto(`/dashboard/creator/courses/${course.id}`);
  const panel = page.getByRole('region', { name: 'Live sessions' });
  const row = panel.getByRole('list', { name: 'Upcoming sessions' }).getByTestId('session-row');
  await expect(row).toContainText('Colour theory Q&A');
  await expect(row.getByRole('note')).toHaveCount(0);

  // Change the title from the keyboard: the dialog saves, the note says Zoom has not changed it yet, and why.
  await row.getByRole('button', { name: 'Change Colour theory Q&A' }).focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Change session' });
  await dialog.getByLabel('Title').fill('Colour theory Q&A (moved)');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog).toBeHidden({ timeout: 20_000 });
  await expect(page.getByText('is changed here. Not yet changed in Zoom: we keep trying.')).toBeVisible();
  const note = row.getByRole('note');
  await expect(note).toContainText('Not yet changed in Zoom: we keep trying.');
  await expect(note).toContainText(/Zoom/);
  await checkAndShoot(page, testInfo, 'course-editor-session-pending', { sessions: panel });

  // Still cancellable, after the confirmation; the deletion waits for Zoom too.
  await row.getByRole('button', { name: 'Cancel Colour theory Q&A (moved)' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Cancel “Colour theory Q&A (moved)”?' });
  await confirm.getByRole('button', { name: 'Cancel session' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByText('is cancelled here. Not yet deleted in Zoom: we keep trying.')).toBeVisible();
  await expect(panel.getByText('No upcoming sessions.')).toBeVisible();
  await panel.getByText('Past and cancelled (1)').click();
  await expect(panel.getByRole('list', { name: 'Past and cancelled sessions' }).getByRole('note')).toContainText('Not yet deleted in Zoom: we keep trying.');
  await checkAndShoot(page, testInfo, 'course-editor-session-pending-cancelled', { sessions: panel });
});
