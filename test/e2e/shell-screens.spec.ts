import type { Role } from '#contracts/common.ts';
import type { Outputs } from '#lib/local/outputs.ts';
import { createTestAccount, expect, seriousA11yViolations, test } from './support/cloud.ts';

// Every screen of every role's menu, at 1280 px and at 375 px: axe finds nothing serious, nothing sticks out
// sideways, and a full-page screenshot lands in the test's output folder for a person to look at.

const screens: Record<Role, string[]> = {
  admin: ['', '/analytics', '/emails', '/users', '/courses', '/settings'],
  creator: ['', '/courses', '/create', '/landing', '/crm', '/integrations', '/analytics', '/profile'],
  leader: ['', '/groups', '/licenses', '/reports', '/settings'],
  learner: ['', '/courses', '/browse', '/certificates', '/profile'],
};

async function credentials(cloud: Outputs, role: Role): Promise<{ email: string; password: string }> {
  if (role === 'admin') return { email: cloud.AdminEmail, password: cloud.AdminPassword };
  if (role === 'creator') return { email: cloud.DemoCreatorEmail, password: cloud.DemoCreatorPassword };
  return createTestAccount(cloud, role, `screens-${role}`);
}

for (const role of Object.keys(screens) as Role[]) {
  test(`every ${role} screen is accessible and fits at 1280 px and 375 px`, async ({ page, cloud }, testInfo) => {
    test.setTimeout(120_000);
    const { email, password } = await credentials(cloud, role);
    await page.goto('/auth/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/dashboard/${role}$`));

    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: width === 375 ? 740 : 800 });
      for (const path of screens[role]) {
        await page.goto(`/dashboard/${role}${path}`);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await expect(page.getByText('Loading analytics...')).toHaveCount(0);
        expect(await seriousA11yViolations(page), `${role}${path} at ${width}px`).toEqual([]);
        expect(await page.evaluate('document.documentElement.scrollWidth'), `${role}${path} at ${width}px`).toBeLessThanOrEqual(width);
        const name = `${role}${path.replaceAll('/', '-') || '-dashboard'}-${width}.png`;
        await page.screenshot({ path: testInfo.outputPath(name), fullPage: true, animations: 'disabled' });
      }
    }
  });
}
