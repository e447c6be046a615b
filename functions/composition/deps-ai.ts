import { bedrockToolModel } from '#adapters/bedrock-text-model.ts';
import { courseOutlineDraft } from '#contracts/ai.ts';
import { quizDefinition } from '#contracts/courses.ts';
import type { ToolModel } from '#core/ai/ports.ts';
import type { DraftingDeps } from '#core/ai/drafting.ts';
import { dynamoAiReplays } from '#data/ai-drafts.ts';
import * as z from 'zod';
import { clock, courseRepository, creditRepository, ids, metrics } from '#functions/composition/deps.ts';

/**
 * The composition of the drafting tools (issue 36): the Bedrock client stays out of every other bundle, and no HTML
 * sanitizer comes in (the drafts are plain text and the platform's Markdown, cleaned in core/ai/drafting.ts).
 */
let model: ToolModel | undefined;

export const toolModel = (): ToolModel => (model ??= bedrockToolModel());

export const draftingDeps = (): DraftingDeps => ({
  model: toolModel(),
  courses: courseRepository(),
  credits: creditRepository(),
  replays: {
    courseOutline: dynamoAiReplays('courseOutline', courseOutlineDraft),
    lessonDraft: dynamoAiReplays('lessonDraft', z.string()),
    quizFromLesson: dynamoAiReplays('quizFromLesson', quizDefinition),
  },
  clock,
  ids,
  metrics,
});
