import { describe, expect, it } from 'vitest';
import { menuFor, menuGroupsFor } from './menus.ts';

const entries = (role: string) => menuFor(role).map(({ title, url }) => [title, url]);

describe('the sidebar menu of each role (SPEC.md section 2)', () => {
  it('gives the admin Dashboard, analytics, users, Email Campaigns, courses, settings', () => {
    expect(entries('admin')).toEqual([
      ['Dashboard', '/dashboard/admin'],
      ['analytics', '/dashboard/admin/analytics'],
      ['users', '/dashboard/admin/users'],
      ['Email Campaigns', '/dashboard/admin/emails'],
      ['courses', '/dashboard/admin/courses'],
      ['settings', '/dashboard/admin/settings'],
    ]);
  });

  it('gives the creator Dashboard, My Courses, Create Course, Landing Page, crm, integrations, analytics, profile', () => {
    expect(entries('creator')).toEqual([
      ['Dashboard', '/dashboard/creator'],
      ['My Courses', '/dashboard/creator/courses'],
      ['Create Course', '/dashboard/creator/create'],
      ['Landing Page', '/dashboard/creator/landing'],
      ['crm', '/dashboard/creator/crm'],
      ['integrations', '/dashboard/creator/integrations'],
      ['analytics', '/dashboard/creator/analytics'],
      ['profile', '/dashboard/creator/profile'],
    ]);
  });

  it('gives the leader Dashboard, My Groups, licenses, reports, settings', () => {
    expect(entries('leader')).toEqual([
      ['Dashboard', '/dashboard/leader'],
      ['My Groups', '/dashboard/leader/groups'],
      ['licenses', '/dashboard/leader/licenses'],
      ['reports', '/dashboard/leader/reports'],
      ['settings', '/dashboard/leader/settings'],
    ]);
  });

  it('gives the learner Dashboard, courses, browse, certificates, profile', () => {
    expect(entries('learner')).toEqual([
      ['Dashboard', '/dashboard/learner'],
      ['courses', '/dashboard/learner/courses'],
      ['browse', '/dashboard/learner/browse'],
      ['certificates', '/dashboard/learner/certificates'],
      ['profile', '/dashboard/learner/profile'],
    ]);
  });

  it('gives every entry an icon', () => {
    for (const role of ['admin', 'creator', 'leader', 'learner']) {
      for (const group of menuGroupsFor(role)) {
        for (const item of group.items) expect(item.icon, `${role} ${item.title}`).toBeTruthy();
      }
    }
  });

  it.each(['superuser', '', null, undefined, 'toString'])('gives an unknown role (%s) no menu', (role) => {
    expect(menuFor(role)).toEqual([]);
    expect(menuGroupsFor(role)).toEqual([]);
  });
});

describe('the sidebar groups of each role', () => {
  const groups = (role: string) => menuGroupsFor(role).map(({ label, items }) => [label, items.map(({ title, url }) => [title, url])]);

  it("gives the creator SPEC.md's menu under 'Navigation', then Submissions under 'Courses', then Coupons, Bundles, Memberships, Sequences and Affiliates under 'Marketing', Reports under 'Insights', Developers under 'Developers', Branding and Domains under 'School', then Support under 'Help'", () => {
    expect(groups('creator')).toEqual([
      ['Navigation', entries('creator')],
      ['Courses', [['Submissions', '/dashboard/creator/submissions']]],
      [
        'Marketing',
        [
          ['Coupons', '/dashboard/creator/coupons'],
          ['Bundles', '/dashboard/creator/bundles'],
          ['Memberships', '/dashboard/creator/memberships'],
          ['Sequences', '/dashboard/creator/sequences'],
          ['Affiliates', '/dashboard/creator/affiliates'],
        ],
      ],
      ['Insights', [['Reports', '/dashboard/creator/reports']]],
      ['Developers', [['Developers', '/dashboard/creator/developers']]],
      [
        'School',
        [
          ['Branding', '/dashboard/creator/branding'],
          ['Domains', '/dashboard/creator/domains'],
        ],
      ],
      ['Help', [['Support', '/dashboard/creator/support']]],
    ]);
  });

  it('names the plan feature of each Pro page (the sidebar locks it for a plan without it)', () => {
    const features = menuGroupsFor('creator').flatMap(({ items }) => items.filter((item) => item.feature).map(({ title, feature }) => [title, feature]));
    expect(features).toEqual([
      ['Memberships', 'memberships'],
      ['Affiliates', 'affiliates'],
      ['Reports', 'detailedReports'],
      ['Developers', 'api'],
      ['Branding', 'branding'],
      ['Domains', 'customDomains'],
    ]);
  });

  it("gives the admin 'Navigation', then the Audit log under 'Insights' and the Support inbox under 'Help'", () => {
    expect(groups('admin')).toEqual([
      ['Navigation', entries('admin')],
      ['Insights', [['Audit', '/dashboard/admin/audit']]],
      ['Help', [['Support', '/dashboard/admin/support']]],
    ]);
  });

  it.each(['leader', 'learner'])("gives the %s only 'Navigation'", (role) => {
    expect(groups(role)).toEqual([['Navigation', entries(role)]]);
  });
});
