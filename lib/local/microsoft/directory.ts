/**
 * The local Microsoft tenant (lib/local/microsoft/stand-in.ts): one Entra ID directory with one app registration and
 * one organiser's mailbox, published in `.local/outputs.json` as the Teams demo credentials (docs/api.md). Fixed
 * values, so a developer's saved integration keeps working across restarts.
 */
export interface AppRegistration {
  clientId: string;
  displayName: string;
  /** Client secret values (what a creator pastes: the secret's Value, not its ID). */
  secrets: string[];
  /** Application permissions granted with admin consent (roles in the token). */
  roles: string[];
}

export interface DirectoryUser {
  id: string;
  displayName: string;
  userPrincipalName: string;
  mail: string;
}

export interface Tenant {
  id: string;
  displayName: string;
  /** Verified domains: a tenant is also found by one of them in the authority's path. */
  domains: string[];
  apps: AppRegistration[];
  users: DirectoryUser[];
}

export const demoTenant: Tenant = {
  id: '5c0ffee0-7ea5-4d3e-9a1b-10ca10000001',
  displayName: 'Demo School (local)',
  domains: ['demoschool.onmicrosoft.com'],
  apps: [
    {
      clientId: '8e7a6c2b-11d4-4f3a-b0c5-7ea350000001',
      displayName: 'Course Platform live sessions (local)',
      secrets: ['Xq58Q~local.teams.demo-secret_2026'],
      roles: ['Calendars.ReadWrite', 'User.Read.All'],
    },
  ],
  users: [
    {
      id: '0b1e6f2a-4c3d-4e5f-8a9b-0c1d2e3f4a5b',
      displayName: 'Demo Organiser',
      userPrincipalName: 'organiser@demoschool.onmicrosoft.com',
      mail: 'organiser@demoschool.onmicrosoft.com',
    },
  ],
};

/** The demo credentials, as outputs.json names them (TeamsTenantId, TeamsClientId, TeamsClientSecret, TeamsOrganizerEmail). */
export const teamsDemoCredentials = {
  tenantId: demoTenant.id,
  clientId: demoTenant.apps[0]!.clientId,
  clientSecret: demoTenant.apps[0]!.secrets[0]!,
  organizerEmail: demoTenant.users[0]!.mail,
};
