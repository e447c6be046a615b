import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBedrockStandIn } from './bedrock/stand-in.ts';
import { startZoomStandIn, zoomErrorReply } from './zoom/stand-in.ts';
import { startKmsStandIn } from './kms/stand-in.ts';
import { teamsDemoCredentials } from './microsoft/directory.ts';
import { graphErrorReply, startMicrosoftStandIn } from './microsoft/stand-in.ts';
import { GOOGLE_DEMO_CLIENT_ID, startGoogleStandIn } from './google/stand-in.ts';
import { ensureUserPool, startCognitoLocal } from './cognito/cognito-local.ts';
import { startCognitoShim } from './cognito/shim.ts';
import { startTriggerBridge } from './cognito/trigger-bridge.ts';
import { asyncInvoker, type RetryPolicy } from './dead-letters/async-invoker.ts';
import { deadLetterStore } from './dead-letters/store.ts';
import { assertJava, ensureTable, startControllableDynamoDb } from './dynamodb/dynamodb-local.ts';
import { startStreamPoller, type StreamPoller } from './dynamodb/stream-poller.ts';
import { eventHandlers } from '#functions/routes.ts';
import { startFaultControl, type DatabaseControl } from './faults/control.ts';
import { awsErrorReply, googleErrorReply, startFaultProxy, stripeErrorReply, type ErrorReply } from './faults/proxy.ts';
import { applyFunctionEnv, functionEnv } from './function-env.ts';
import { startGateway } from './gateway/http-api.ts';
import { webConfig, writeOutputs, type Outputs } from './outputs.ts';
import { buildWeb } from './web/build.ts';
import { startSpaServer } from './web/spa-server.ts';
import { startPagesServer } from './pages/server.ts';
import { startDnsStandIn } from './dns/stand-in.ts';
import { startStorefrontServer } from './storefront/server.ts';
import { startS3Emulator } from './s3/s3rver.ts';
import { assertPortsFree, freePorts, portsFromEnv, startAgainOnPortTaken, type Ports } from './ports.ts';
import { answers, spawnChild, waitUntilReady, type Child } from './processes.ts';
import { startScheduler } from './scheduler/emulator.ts';
import { ensureLocalSecrets, localEdgeOnly, localOriginSecrets } from './secrets/generated.ts';
import { ORIGIN_HEADER } from '#middleware/origin.ts';
import { localSessionToken, startSecretsStandIn } from './secrets/stand-in.ts';
import { localSecretValues } from './secrets/values.ts';
import { DEMO_LEARNER_PASSWORD, demoLearnerEmail } from './demo-catalogue.ts';
import { seed as seedAccounts, seedAccounts as accounts, type DemoPlan } from './seed.ts';
import { startSes } from './ses/ses-local.ts';
import { stripeMode } from './stripe/mode.ts';
import { savedState } from './stripe/saved-state.ts';
import { startStripeStandIn } from './stripe/stand-in.ts';
import { startJobEventSource, sqsRecord, type Delivery, type JobEventSource } from './sqs/event-source.ts';
import { queuedJobs } from './sqs/job-queues.ts';
import { startSqsStandIn } from './sqs/stand-in.ts';
import { deadLetterQueues } from '../constructs/async-retries.ts';
import { jobQueueName } from '../constructs/job-queue-names.ts';

export interface LocalCloudOptions {
  /** Where everything persists (DynamoDB, cognito-local, the S3 emulator's files, secrets, outputs.json). */
  dataDir: string;
  /** Explicit ports (over the *_PORT variables and defaults), or 'auto' for free ephemeral ports. */
  ports?: Partial<Ports> | 'auto';
  /**
   * The web app on WebUrl: the Vite dev server (true, the default: edits show at once), or 'built': the app built
   * once into `<dataDir>/web-dist` (`vite build`, a few seconds) and served as the app's distribution serves it (lib/local/web/spa-server.ts),
   * which the browser tests use (each page a few requests instead of the dev server's hundreds of modules).
   */
  web?: boolean | 'built';
  /** Create the seeded accounts when missing and put the demo creator on the Pro plan, selling (default true). */
  seed?: boolean;
  /** Per-route throttling in the gateway (default true); off for load measurements. */
  throttle?: boolean;
  /**
   * Fault proxies in front of DynamoDB Local, SES local, cognito-local and the Stripe, Bedrock and Zoom stand-ins, and their
   * test control (docs/faults.md; default: LOCAL_FAULTS=1). Off, every call goes straight to its service.
   */
  faults?: boolean;
  /**
   * Retries of the asynchronous runs (the scheduler's, the jobs started with an `InvocationType: Event` invoke) before
   * their event becomes a dead letter under `<dataDir>/dead-letters/` (default: Lambda's 2 retries, 1 and 2 s apart).
   */
  retryPolicy?: RetryPolicy;
  /**
   * The job engine's local event source (lib/local/sqs/event-source.ts): a slice's visibility timeout (default: its
   * job's timeout + 5 s), pollers per queue (default 1) and each delivery's outcome (tests).
   */
  jobQueues?: { visibilityTimeoutSeconds?: number; concurrency?: number; onDelivery?: (delivery: Delivery) => void };
  /**
   * The table stream's local event source (lib/local/dynamodb/stream-poller.ts): its batching window (default 150 ms, so
   * the aggregated figures land well within a second; the bench sets the cloud's).
   */
  streams?: { batchWindowMs?: number };
  log?: (line: string) => void;
}

export interface LocalCloud {
  outputs: Outputs;
  /** The handler environment (functionEnv), already applied to this process. */
  env: Record<string, string>;
  ports: Ports;
  /** The mail viewer of SES local. */
  mailViewerUrl: string;
  /** How the seed left the demo creator's plan (undefined when not seeding). */
  demoPlan?: DemoPlan;
  /** The sliced jobs' queues and their event source (decision 0032). */
  jobQueues: JobEventSource;
  /** The table stream's poller, which runs the stream aggregator (decision 0040): `caughtUp()` waits for its figures. */
  streams: StreamPoller;
  /** The stream's second poller, which runs the reactions (decision 0050: a sale's receipts): `caughtUp()` waits for them. */
  reactions: StreamPoller;
  stop(): Promise<void>;
}

const REGION = 'eu-west-2';
const TABLE_NAME = 'course-platform';
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Starts the whole platform on loopback (ARCHITECTURE.md, "The local cloud"). Everything started is
 * stopped again if a later piece fails, so a failed start leaves no process behind; on 'auto' ports, a start that
 * meets a port taken meanwhile is made again on newly drawn ones.
 */
export const startLocalCloud = (opts: LocalCloudOptions): Promise<LocalCloud> =>
  opts.ports === 'auto' ? startAgainOnPortTaken(() => startOnce(opts), opts.log) : startOnce(opts);

const startOnce = async (opts: LocalCloudOptions): Promise<LocalCloud> => {
  const log = opts.log ?? (() => undefined);
  const web = opts.web ?? true;
  const dataDir = resolve(opts.dataDir);
  const ports = opts.ports === 'auto' ? await freePorts() : portsFromEnv(process.env, opts.ports);
  await assertPortsFree(ports, web ? [] : ['web']);
  assertJava();
  mkdirSync(dataDir, { recursive: true });
  const secrets = ensureLocalSecrets(dataDir);
  const originSecrets = localOriginSecrets(dataDir);
  // Read once, before anything starts: a half-configured real Stripe is a clear error now, not a failed payment later.
  const stripeKind = stripeMode(process.env).kind;

  const url = (port: number) => `http://127.0.0.1:${port}`;
  const apiUrl = url(ports.api);
  const webUrl = `http://localhost:${ports.web}`;
  // LOCAL_EDGE_ONLY=1 (decision 0028): as in the cloud, the API's address is the web app's, whose /api proxy adds the
  // origin header; the seed, Stripe's webhooks and the tests call it there. The gateway's own address answers 403.
  const edgeOnly = localEdgeOnly(process.env);
  if (edgeOnly && !web) throw new Error('LOCAL_EDGE_ONLY=1 needs the web dev server: its /api proxy is the local edge the API answers.');
  const publicApiUrl = edgeOnly ? url(ports.web) : apiUrl;
  const stops: (() => Promise<void>)[] = [];
  // The local Lambda service's asynchronous invocations (scheduled runs, jobs started at once): retries, dead letters.
  const invoker = asyncInvoker({ store: deadLetterStore(dataDir), log, ...(opts.retryPolicy ? { retryPolicy: opts.retryPolicy } : {}) });
  const stopAll = async () => {
    // First the retries still waiting (their events become dead letters) and the runs in flight, while every service
    // they call is up; then the rest in reverse start order: the web and the API go before the services they call.
    await invoker.stop().catch((e: unknown) => log(`[local] stop: ${String(e)}`));
    for (const stop of stops.splice(0).reverse()) await stop().catch((e: unknown) => log(`[local] stop: ${String(e)}`));
  };

  let dynamo: Promise<DatabaseControl> | undefined;
  try {
    // The slow pieces (java ~4 s, vite ~2 s) start first and in parallel with the in-process ones.
    const webConfigFile = join(dataDir, 'config.json');
    let vite: Child | undefined;
    // Into the cloud's own folder: another cloud (another browser test run) may be building or serving its own.
    const builtDir = join(dataDir, 'web-dist');
    const built = web === 'built' ? buildWeb(builtDir) : undefined;
    built?.catch(() => undefined); // awaited below; this only keeps an early failure from being "unhandled"
    if (web === true) {
      vite = spawnChild('web', 'npm', ['run', 'dev', '-w', 'web', '--', '--port', String(ports.web), '--strictPort'], {
        cwd: repoRoot,
        // The proxy is the local app distribution: it adds the origin header (checked with LOCAL_EDGE_ONLY=1).
        env: { ...process.env, API_PROXY_TARGET: apiUrl, API_PROXY_ORIGIN_HEADER: `${ORIGIN_HEADER}:${originSecrets.app}`, WEB_CONFIG_FILE: webConfigFile, FORCE_COLOR: '0' },
        log,
      });
      stops.push(() => vite!.stop());
    }
    dynamo = startControllableDynamoDb({ port: ports.dynamodb, dir: join(dataDir, 'dynamodb'), log }).then((database) => {
      stops.push(() => database.stop());
      return database;
    });
    dynamo.catch(() => undefined); // awaited below; this only keeps an early failure from being "unhandled"
    const bridge = await startTriggerBridge({ port: ports.lambda, log, invoker });
    stops.push(bridge.stop);
    const cognito = await startCognitoLocal({
      port: ports.cognitoLocal,
      dir: join(dataDir, 'cognito'),
      lambdaEndpoint: bridge.url,
      issuerDomain: url(ports.cognito),
      log,
    });
    stops.push(() => cognito.stop());
    const shim = await startCognitoShim({ port: ports.cognito, upstreamPort: ports.cognitoLocal, log });
    stops.push(shim.stop);
    const ses = await startSes({ port: ports.ses });
    stops.push(ses.stop);
    const secretsStandIn = await startSecretsStandIn({
      port: ports.secrets,
      token: localSessionToken,
      secrets: localSecretValues(secrets, process.env),
      region: REGION,
    });
    stops.push(secretsStandIn.stop);
    const stripeState = savedState(join(dataDir, 'stripe-stand-in.json'), log);
    const stripe = await startStripeStandIn({
      port: ports.stripe,
      webhookUrl: `${publicApiUrl}/api/webhooks/stripe`,
      webhookSecret: secrets.stripeWebhookSecret,
      connectWebhookUrl: `${publicApiUrl}/api/webhooks/stripe-connect`,
      connectWebhookSecret: secrets.stripeConnectWebhookSecret,
      logger: { info: (line) => log(`[stripe] ${line}`), warn: (line) => log(`[stripe] ${line}`) },
      state: stripeState.load(),
      onChange: stripeState.changed,
    });
    stripeState.track(stripe.state);
    stops.push(async () => {
      await stripe.stop();
      stripeState.flush();
    });
    const bedrock = await startBedrockStandIn({ port: ports.bedrock });
    stops.push(() => bedrock.stop());
    const zoom = await startZoomStandIn({ port: ports.zoom, stateFile: join(dataDir, 'zoom-stand-in.json'), log });
    stops.push(() => zoom.stop());
    // Google's consent screen, token endpoint and Calendar v3 (issue 30), its consents and events kept in the data dir.
    const google = await startGoogleStandIn({ port: ports.google, stateFile: join(dataDir, 'google-stand-in.json') });
    stops.push(google.stop);
    const s3 = await startS3Emulator({ port: ports.s3, dir: join(dataDir, 's3'), log });
    stops.push(s3.stop);
    const kms = await startKmsStandIn({ port: ports.kms, region: REGION, keysFile: join(dataDir, 'kms-keys.json') });
    stops.push(kms.stop);
    // Custom domains (decision 0055): DNS on loopback whose records tests set, read by the verification's resolver.
    const dns = await startDnsStandIn({ controlPort: ports.dns });
    stops.push(dns.stop);
    const microsoft = await startMicrosoftStandIn({ port: ports.microsoft, stateFile: join(dataDir, 'microsoft-stand-in.json') });
    stops.push(microsoft.stop);
    // The job engine's queues (decision 0032). A slice SQS gives up on (its last receive failed) is kept, as the
    // asynchronous runs' are, as a dead letter that `npm run redrive -- job-slices` runs again.
    const deadLetters = deadLetterStore(dataDir);
    const sqs = await startSqsStandIn({
      port: ports.sqs,
      region: REGION,
      onDeadLetter: ({ from, to, message }) => {
        const job = queuedJobs().find((j) => jobQueueName(j.name) === from.name);
        const event = {
          Records: [
            sqsRecord(
              { messageId: message.messageId, receiptHandle: '', body: message.body, md5OfBody: message.md5OfBody, attributes: { ApproximateReceiveCount: String(message.receiveCount), SentTimestamp: String(message.sentAt), MessageGroupId: message.groupId, MessageDeduplicationId: message.deduplicationId } },
              from.arn,
              REGION,
            ),
          ],
        };
        const at = new Date().toISOString();
        void deadLetters
          .put({
            queue: deadLetterQueues.jobSlices,
            functionName: job?.name ?? from.name,
            source: 'sqs',
            event,
            error: { errorType: 'MaxReceiveCountExceeded', errorMessage: `received ${message.receiveCount} times without success` },
            attempts: message.receiveCount,
            firstAttemptAt: new Date(message.firstReceiveAt ?? message.sentAt).toISOString(),
            failedAt: at,
          })
          .then(
            (letter) => log(`[sqs] ${job?.name ?? from.name} slice ${message.messageId} given up after ${message.receiveCount} receives: moved to ${to.name}, dead letter ${letter.id} (npm run redrive -- ${deadLetterQueues.jobSlices})`),
            (error: unknown) => log(`[sqs] ${from.name} slice ${message.messageId} moved to ${to.name}; its dead letter could not be written: ${(error as Error).message}`),
          );
      },
    });
    stops.push(sqs.stop);

    const [{ userPoolId, clientId }, database] = await Promise.all([
      ensureUserPool(shim.url, REGION),
      dynamo.then(async (database) => {
        await ensureTable(url(ports.dynamodb), TABLE_NAME);
        return database;
      }),
    ]);

    // With faults on, the functions reach each dependency through a proxy the fault control steers; outputs.json keeps
    // naming the services themselves (what a test reads back, the browser's Cognito and hosted Stripe pages).
    const endpoints = { dynamodb: url(ports.dynamodb), ses: url(ports.ses), cognito: shim.url, stripe: url(ports.stripe), bedrock: url(ports.bedrock), zoom: zoom.url, microsoft: microsoft.url, google: google.url };
    let faultsUrl: string | undefined;
    if (opts.faults ?? process.env['LOCAL_FAULTS'] === '1') {
      const errors: Record<keyof typeof endpoints, ErrorReply> = {
        dynamodb: awsErrorReply('InternalServerError', 500),
        // SES answers a sender over its rate with a throttle.
        ses: awsErrorReply('TooManyRequestsException', 429),
        cognito: awsErrorReply('InternalErrorException', 500),
        stripe: stripeErrorReply(),
        bedrock: awsErrorReply('ServiceUnavailableException', 503),
        zoom: zoomErrorReply(),
        microsoft: graphErrorReply(),
        google: googleErrorReply(),
      };
      const proxies = await Promise.all(
        (Object.keys(endpoints) as (keyof typeof endpoints)[]).map((name) => startFaultProxy({ name, target: endpoints[name], errorReply: errors[name] })),
      );
      for (const proxy of proxies) {
        stops.push(proxy.stop);
        endpoints[proxy.name as keyof typeof endpoints] = proxy.url;
      }
      const control = await startFaultControl({ proxies, database });
      stops.push(control.stop);
      faultsUrl = control.url;
      log(`[local] faults on: control at ${control.url} (docs/faults.md)`);
    }

    const outputs: Outputs = {
      Region: REGION,
      ApiUrl: publicApiUrl,
      WebUrl: webUrl,
      // 127.0.0.1, not localhost: another host than the app's, so no cookie of the app's host reaches a page.
      PagesUrl: url(ports.pages),
      LambdaEndpoint: bridge.url,
      UserPoolId: userPoolId,
      UserPoolClientId: clientId,
      CognitoEndpoint: shim.url,
      TableName: TABLE_NAME,
      DynamoDbEndpoint: url(ports.dynamodb),
      SesEndpoint: url(ports.ses),
      StripeApiUrl: url(ports.stripe),
      StripeWebhookSecret: secrets.stripeWebhookSecret,
      StripeConnectWebhookSecret: secrets.stripeConnectWebhookSecret,
      BedrockEndpoint: url(ports.bedrock),
      SecretsEndpoint: secretsStandIn.url,
      KmsEndpoint: kms.url,
      SqsEndpoint: sqs.url,
      CertificateKeyArn: kms.certificateKeyArn,
      ZoomAccountId: zoom.credentials.accountId,
      ZoomClientId: zoom.credentials.clientId,
      ZoomClientSecret: zoom.credentials.clientSecret,
      ZoomApiUrl: zoom.apiUrl,
      ZoomOAuthUrl: zoom.oauthUrl,
      TeamsTenantId: teamsDemoCredentials.tenantId,
      TeamsClientId: teamsDemoCredentials.clientId,
      TeamsClientSecret: teamsDemoCredentials.clientSecret,
      TeamsOrganizerEmail: teamsDemoCredentials.organizerEmail,
      GraphApiUrl: microsoft.url,
      MicrosoftLoginUrl: microsoft.url,
      GoogleCalendarApiUrl: google.calendarApiUrl,
      GoogleOAuthUrl: google.consentUrl,
      GoogleTokenUrl: google.tokenUrl,
      GoogleOAuthClientId: GOOGLE_DEMO_CLIENT_ID,
      FilesEndpoint: s3.url,
      FilesBucket: s3.bucket,
      DnsControlUrl: dns.controlUrl,
      DnsResolver: dns.resolver,
      StorefrontUrl: url(ports.storefront),
      AdminEmail: accounts.admin.email,
      AdminPassword: accounts.admin.password,
      DemoCreatorEmail: accounts.creator.email,
      DemoCreatorPassword: accounts.creator.password,
      DemoNewCreatorEmail: accounts.newCreator.email,
      DemoNewCreatorPassword: accounts.newCreator.password,
      DemoLeaderEmail: accounts.leader.email,
      DemoLeaderPassword: accounts.leader.password,
      DemoLearnerEmail: demoLearnerEmail,
      DemoLearnerPassword: DEMO_LEARNER_PASSWORD,
      ...(faultsUrl ? { FaultsUrl: faultsUrl } : {}),
    };
    const env = functionEnv(
      {
        ...outputs,
        DynamoDbEndpoint: endpoints.dynamodb,
        SesEndpoint: endpoints.ses,
        CognitoEndpoint: endpoints.cognito,
        StripeApiUrl: endpoints.stripe,
        BedrockEndpoint: endpoints.bedrock,
        ZoomApiUrl: `${endpoints.zoom}/v2`,
        ZoomOAuthUrl: endpoints.zoom,
        GraphApiUrl: endpoints.microsoft,
        MicrosoftLoginUrl: endpoints.microsoft,
        // The functions' calls to Google go through its fault proxy; the browser's consent screen does not.
        GoogleTokenUrl: `${endpoints.google}/token`,
        GoogleCalendarApiUrl: `${endpoints.google}/calendar/v3`,
      },
      dataDir,
    ) as Record<string, string>;
    applyFunctionEnv(env);
    writeOutputs(dataDir, outputs);
    writeFileSync(webConfigFile, `${JSON.stringify(webConfig(outputs), null, 2)}\n`);
    if (built) {
      await built;
      const spa = await startSpaServer({ distDir: builtDir, config: webConfig(outputs), apiUrl, apiHeaders: { [ORIGIN_HEADER]: originSecrets.app }, port: ports.web });
      stops.push(spa.stop);
    }

    if (edgeOnly) log(`[local] LOCAL_EDGE_ONLY=1: the API answers only requests through the web app's /api proxy (ApiUrl ${publicApiUrl}) and the pages origin`);
    const gateway = await startGateway({
      port: ports.api,
      cognitoEndpoint: shim.url,
      userPoolId,
      clientId,
      throttle: opts.throttle ?? true,
      log,
    });
    stops.push(gateway.stop);
    const pages = await startPagesServer({ port: ports.pages, apiUrl, originSecret: originSecrets.pages, log });
    stops.push(pages.stop);
    const storefront = await startStorefrontServer({ port: ports.storefront, apiUrl, ...(web ? { webUrl } : {}), log });
    stops.push(storefront.stop);

    // Edge-only, the seed reaches the API through the web dev server's proxy: wait for it first.
    if (edgeOnly && vite) await waitUntilReady('The web dev server (vite)', () => answers(`${url(ports.web)}/`), { child: vite, timeoutMs: 60_000 });
    // Lambda's SQS event source for the sliced jobs: before the scheduler, whose first runs send their first slices.
    const jobQueues = await startJobEventSource({
      endpoint: sqs.url,
      region: REGION,
      jobs: queuedJobs(),
      log,
      ...(opts.jobQueues?.visibilityTimeoutSeconds !== undefined ? { visibilityTimeoutSeconds: () => opts.jobQueues!.visibilityTimeoutSeconds! } : {}),
      ...(opts.jobQueues?.onDelivery ? { onDelivery: opts.jobQueues.onDelivery } : {}),
      ...(opts.jobQueues?.concurrency !== undefined ? { concurrency: opts.jobQueues.concurrency } : {}),
    });
    stops.push(jobQueues.stop);
    // The seed after the jobs' queues exist: publishing a course starts a 'course-changed' run (its memberships' members).
    const seeded = (opts.seed ?? true) ? await seedAccounts({ outputs, stripe: stripeKind, log }) : undefined;

    // Lambda's DynamoDB Streams event source: the stream aggregator's counters (decision 0040). Against DynamoDB Local
    // itself, not the fault proxy (the stream is read as Lambda reads it; the aggregator's own writes go through it).
    const streams = await startStreamPoller({
      endpoint: url(ports.dynamodb),
      region: REGION,
      tableName: TABLE_NAME,
      handler: eventHandlers.streamAggregator,
      log,
      ...(opts.streams?.batchWindowMs !== undefined ? { batchWindowMs: opts.streams.batchWindowMs } : {}),
    });
    stops.push(streams.stop);
    // The stream's second consumer (its own event source in AWS): every reaction to a change (decision 0050).
    const reactions = await startStreamPoller({
      endpoint: url(ports.dynamodb),
      region: REGION,
      tableName: TABLE_NAME,
      handler: eventHandlers.reactions,
      log,
      // As its event source in AWS (lib/stacks/jobs-stack.ts reactionsOf): a batch of 100 at most.
      batchSize: 100,
      ...(opts.streams?.batchWindowMs !== undefined ? { batchWindowMs: opts.streams.batchWindowMs } : {}),
    });
    stops.push(reactions.stop);

    const scheduler = startScheduler({ log, region: REGION, invoker });
    stops.push(scheduler.stop);

    if (vite) {
      await waitUntilReady('The web dev server (vite)', () => answers(`${url(ports.web)}/`), { child: vite, timeoutMs: 60_000 });
    }

    return { outputs, env, ports, mailViewerUrl: `${url(ports.ses)}/`, demoPlan: seeded?.demoPlan, jobQueues, streams, reactions, stop: stopAll };
  } catch (error) {
    // A piece still starting (java) registers its stop when ready: wait for it so nothing is orphaned.
    await dynamo?.catch(() => undefined);
    await stopAll();
    throw error;
  }
};
