/**
 * The landing-page fields the local Bedrock reads from a generation prompt: the page it answers with (stand-in.ts) and
 * the answers built from that page (answers.ts) both take them.
 */
export interface LandingFields {
  companyName: string;
  businessType: string;
  colorTheme: string;
  missionStatement: string;
  problemSolved: string;
}

/** Prompt keys, normalised (lower case, letters and digits only), mapped to the field they name. */
const aliases: Record<string, keyof LandingFields> = {
  companyname: 'companyName',
  company: 'companyName',
  brand: 'companyName',
  brandname: 'companyName',
  companybrandname: 'companyName',
  businessname: 'companyName',
  businesstype: 'businessType',
  businesstypeindustry: 'businessType',
  industry: 'businessType',
  colortheme: 'colorTheme',
  colourtheme: 'colorTheme',
  theme: 'colorTheme',
  missionstatement: 'missionStatement',
  mission: 'missionStatement',
  problemsolved: 'problemSolved',
  problemyousolve: 'problemSolved',
  problem: 'problemSolved',
};

const normaliseKey = (key: string): string => key.toLowerCase().replace(/[^a-z0-9]/g, '');

const fromJson = (text: string): Partial<LandingFields> => {
  // The object may sit inside prose or a code fence: try each '{' up to the last '}'.
  const end = text.lastIndexOf('}');
  for (let start = text.indexOf('{'); start >= 0 && start < end; start = text.indexOf('{', start + 1)) {
    try {
      const parsed: unknown = JSON.parse(text.slice(start, end + 1));
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
        const found: Partial<LandingFields> = {};
        for (const [key, value] of Object.entries(parsed)) {
          const field = aliases[normaliseKey(key)];
          if (field && typeof value === 'string' && value.trim()) found[field] ??= value.trim();
        }
        if (Object.keys(found).length > 0) return found;
      }
    } catch {
      // not JSON from this brace: try the next one
    }
  }
  return {};
};

const fromLines = (text: string): Partial<LandingFields> => {
  const found: Partial<LandingFields> = {};
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*(?:[-*•]\s*)?([A-Za-z][A-Za-z /_-]{0,40}?)\s*[:=]\s*(.+?)\s*$/.exec(line);
    if (!match) continue;
    const field = aliases[normaliseKey(match[1] ?? '')];
    const value = (match[2] ?? '').replace(/^["']|["']$/g, '').trim();
    if (field && value) found[field] ??= value;
  }
  return found;
};

const defaults: LandingFields = {
  companyName: 'Your Company',
  businessType: 'business',
  colorTheme: 'professional',
  missionStatement: 'We help our customers do their best work, simply and reliably.',
  problemSolved: 'Getting started is harder than it should be. We make it simple.',
};

/** The landing-page fields in a prompt: a JSON object wins, then `key: value` lines, then defaults. */
export const extractFields = (prompt: string): LandingFields => ({ ...defaults, ...fromLines(prompt), ...fromJson(prompt) });
