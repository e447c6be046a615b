import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { secretIdKeys } from '#lib/constructs/function-access.ts';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** What the CDK app gives one function: the IAM service prefixes it may call and its environment variable names. */
export interface Grants {
  services: Set<string>;
  env: Set<string>;
}

/**
 * Synthesizes bin/app.ts (without bundling: templates only, a few seconds) into `outDir` and reads, for every
 * function, the services its role may call. Keyed by handler ('http/get-me'), parsed from the description
 * AppFunction writes: "<name> (functions/<handler>.ts)".
 */
export const functionGrants = async (outDir: string): Promise<Map<string, Grants>> => {
  await synth(outDir);
  const grants = new Map<string, Grants>();
  for (const file of readdirSync(outDir).filter((f) => f.endsWith('.template.json'))) {
    const resources = (JSON.parse(readFileSync(join(outDir, file), 'utf8')) as Template).Resources ?? {};
    const policies = Object.values(resources).filter((r) => r.Type === 'AWS::IAM::Policy');
    for (const fn of Object.values(resources).filter((r) => r.Type === 'AWS::Lambda::Function')) {
      const handler = /\(functions\/(.+)\.ts\)/.exec(String(fn.Properties?.Description ?? ''))?.[1];
      if (!handler) continue;
      const roleId = (fn.Properties?.Role as { 'Fn::GetAtt'?: string[] } | undefined)?.['Fn::GetAtt']?.[0];
      const services = new Set<string>();
      for (const policy of policies) {
        const roles = (policy.Properties?.Roles ?? []) as { Ref?: string }[];
        if (!roles.some((r) => r.Ref === roleId)) continue;
        const statements = (policy.Properties?.PolicyDocument as { Statement?: { Action: string | string[] }[] })?.Statement ?? [];
        for (const s of statements) for (const action of [s.Action].flat()) services.add(action.split(':')[0]!);
      }
      const variables = (fn.Properties?.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {};
      grants.set(handler, { services, env: new Set(Object.keys(variables)) });
    }
  }
  return grants;
};

interface Template {
  Resources?: Record<string, { Type: string; Properties?: Record<string, unknown> }>;
}

/** `node --import tsx bin/app.ts` as the CDK CLI runs it (CDK_OUTDIR makes the app synthesize on exit). */
const synth = (outDir: string): Promise<void> => {
  const cdkJson = JSON.parse(readFileSync(join(repoRoot, 'cdk.json'), 'utf8')) as { context?: Record<string, unknown> };
  // No bundling: the bench bundles by itself; only the templates are read here.
  const context = { ...cdkJson.context, 'aws:cdk:bundling-stacks': [] };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'bin', 'app.ts')], {
      cwd: repoRoot,
      env: {
        ...process.env,
        CDK_OUTDIR: outDir,
        CDK_CONTEXT_JSON: JSON.stringify(context),
        // What the cdk CLI sets: the WAF's stack pins us-east-1 and needs to know the other stacks' region.
        CDK_DEFAULT_REGION: process.env.CDK_DEFAULT_REGION ?? 'eu-west-2',
        CDK_DISABLE_VERSION_CHECK: '1',
        CDK_VALIDATION: 'false',
        AWS_EC2_METADATA_DISABLED: 'true',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`cdk synth (bin/app.ts) failed (exit ${code}): ${err.trim().split('\n')[0] ?? ''}`)),
    );
  });
};

/** The IAM prefix of each SDK client package (most are the package's own suffix). */
const iamPrefix: Record<string, string> = {
  'cognito-identity-provider': 'cognito-idp',
  sesv2: 'ses',
  'bedrock-runtime': 'bedrock',
  'secrets-manager': 'secretsmanager',
  eventbridge: 'events',
  'cloudwatch-logs': 'logs',
};

export const serviceOfClient = (pkg: string): string => {
  const suffix = pkg.replace('@aws-sdk/client-', '');
  return iamPrefix[suffix] ?? suffix;
};

/**
 * The variables that say a function talks to Stripe: the id of one of its secrets (lib/constructs/function-access.ts:
 * the API key's, capability `payments`, or a webhook's signing secret: the webhooks verify signatures with the
 * `stripe` package, without an API key). The secrets are read through the Parameters and Secrets extension, so no
 * value is in the environment. `STRIPE_SECRET_KEY` is the key itself, as the environment carried it before the
 * secrets moved; still accepted while the CDK app changes over.
 */
export const stripeVariables = [...secretIdKeys, 'STRIPE_SECRET_KEY'] as const;

/**
 * A client is needed when the function may call its service: an IAM grant for an AWS client, one of
 * `stripeVariables` in its environment for `stripe`. Anything else in the bundle is dead weight on every cold start
 * (or a missing grant). Granted services without a client are least-privilege slack worth a look.
 */
export const checkClients = (clients: readonly string[], grants: Grants) => {
  const needed = (pkg: string): boolean =>
    pkg === 'stripe' ? stripeVariables.some((name) => grants.env.has(name)) : grants.services.has(serviceOfClient(pkg));
  const clientServices = new Set(clients.map(serviceOfClient));
  // A secret named by a `*_SECRET_ID` variable is fetched by the extension (its own process, the function's role),
  // so the secretsmanager grant is used although the bundle holds no client for it.
  if ([...grants.env].some((name) => name.endsWith('_SECRET_ID'))) clientServices.add('secretsmanager');
  return {
    unneeded: clients.filter((c) => !needed(c)),
    grantedUnused: [...grants.services].filter((s) => !['logs', 'xray'].includes(s) && !clientServices.has(s)),
  };
};
