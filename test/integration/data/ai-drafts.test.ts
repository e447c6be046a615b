import { beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { dynamoAiReplays } from '#data/ai-drafts.ts';
import { useLocalCloudEnv } from '../support.ts';
import { unique } from './data-support.ts';

beforeAll(useLocalCloudEnv);

describe('AI drafts’ replays (DynamoDB Local)', () => {
  it('keeps a tool’s outcome per creator and key, its result checked by the tool’s schema when read back', async () => {
    const outline = z.object({ title: z.string() });
    const replays = dynamoAiReplays('courseOutline', outline);
    const userId = unique('ai-creator');
    expect(await replays.get(userId, 'key-1')).toBeUndefined();
    await replays.put(userId, 'key-1', { outcome: 'generated', requestHash: 'h1', result: { title: 'Bread' }, creditsRemaining: 95, expiresAt: 2_000_000_000 });
    await replays.put(userId, 'key-2', { outcome: 'failed', requestHash: 'h2', expiresAt: 2_000_000_000 });
    expect(await replays.get(userId, 'key-1')).toEqual({ outcome: 'generated', requestHash: 'h1', result: { title: 'Bread' }, creditsRemaining: 95, expiresAt: 2_000_000_000 });
    expect(await replays.get(userId, 'key-2')).toEqual({ outcome: 'failed', requestHash: 'h2', expiresAt: 2_000_000_000 });
    // Another tool's replays under the same key are its own.
    expect(await dynamoAiReplays('lessonDraft', z.object({ body: z.string() })).get(userId, 'key-1')).toBeUndefined();
    // A stored result that no longer fits the tool's schema is an error, never handed back as an answer.
    await expect(dynamoAiReplays('courseOutline', z.object({ lessons: z.array(z.string()) })).get(userId, 'key-1')).rejects.toThrow();
  });
});
