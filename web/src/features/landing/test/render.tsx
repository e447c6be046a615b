import type { LandingPage, LandingSettings } from '@contracts/landing.ts';

export const acmeSettings: LandingSettings = {
  companyName: 'Acme Academy',
  businessType: 'education',
  colorTheme: 'warm',
  missionStatement: 'Teach everyone to paint.',
  problemSolved: 'Art classes are expensive.',
};

export const generatedHtml = (companyName: string) =>
  `<!DOCTYPE html><html><head><style>h1{color:#b45309}</style></head><body><h1>${companyName}</h1><p>Welcome.</p></body></html>`;

export const savedPage: LandingPage = {
  content: generatedHtml('Acme Academy'),
  settings: acmeSettings,
  updatedAt: '2026-11-20T10:00:00.000Z',
  publication: null,
};
