import { readFileSync } from 'node:fs';
import Stripe from 'stripe';
import { applyFunctionEnv, functionEnv } from '#lib/local/function-env.ts';
import { functionModules as functions, lambdaContext, lambdaError, loadHandler } from '#lib/local/handlers.ts';
import { defaultDataDir, readOutputs } from '#lib/local/outputs.ts';

const usage = () =>
  `Usage: npm run invoke -- <function> <event-file>\n  functions: ${[...functions.keys()].join(', ')}\n` +
  '  e.g. npm run invoke -- health events/api-health.json';

/**
 * A sample webhook event whose `stripe-signature` header reads "sign-with-local-secret" is signed here, as Stripe
 * would sign it, with this local cloud's webhook secret (the Connect one for the Connect webhook) and the current time
 * (a stored signature would be stale).
 */
const SIGN_HERE = 'sign-with-local-secret';
const signSampleWebhook = (event: unknown, secret: string): unknown => {
  const e = event as { headers?: Record<string, string>; body?: string };
  if (e.headers?.['stripe-signature'] !== SIGN_HERE || typeof e.body !== 'string') return event;
  const header = new Stripe('sk_test_signing_only').webhooks.generateTestHeaderString({ payload: e.body, secret });
  return { ...e, headers: { ...e.headers, 'stripe-signature': header } };
};

/**
 * `npm run invoke -- <function> <event-file>`: runs one handler (a route, trigger, job or event handler `name` from
 * functions/routes.ts) with an event against the local cloud, as Lambda would, and prints its result.
 */
const main = async (): Promise<number> => {
  const [name, eventFile] = process.argv.slice(2);
  if (!name || !eventFile) {
    console.error(usage());
    return 2;
  }
  const module = functions.get(name);
  if (!module) {
    console.error(`Unknown function "${name}".\n${usage()}`);
    return 2;
  }
  const dataDir = defaultDataDir();
  const outputs = readOutputs(dataDir);
  // The running cloud's endpoints, including its secrets stand-in: the handler reads the Stripe key there, as in Lambda.
  applyFunctionEnv(functionEnv(outputs, dataDir));
  // The Connect endpoint has its own signing secret.
  const secret = module === 'webhooks/stripe-connect' ? outputs.StripeConnectWebhookSecret : outputs.StripeWebhookSecret;
  const event = signSampleWebhook(JSON.parse(readFileSync(eventFile, 'utf8')), secret);
  const handler = await loadHandler(module);
  try {
    const result = await handler(event, lambdaContext(name));
    console.log(JSON.stringify(result ?? null, null, 2));
    return 0;
  } catch (error) {
    // What Lambda reports for an unhandled error.
    console.log(JSON.stringify(lambdaError(error), null, 2));
    return 1;
  }
};

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error((error as Error).message);
    process.exit(1);
  },
);
