import type { CourseReport } from '@contracts/reports.ts';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table.tsx';
import { reportsMessages as m } from '../reports-messages.ts';

export const percent = (rate: number): string => `${Math.round(rate * 100)}%`;

/** Per quiz: its attempts and pass rate, and a table of its questions with each one's answers and correct rate. */
export function QuizTable({ report }: { report: CourseReport }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{m.quizzes}</CardTitle>
        <CardDescription>{m.quizzesDescription}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        {report.quizzes.length === 0 && <p className="text-sm text-muted-foreground">{m.noQuizzes}</p>}
        {report.quizzes.map((quiz) => (
          <section key={quiz.lessonId} className="grid gap-3" aria-label={quiz.title}>
            <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
              <h3 className="font-medium break-words">{quiz.title}</h3>
              <p className="text-sm text-muted-foreground tabular-nums">
                {m.attempts} {quiz.attempts.toLocaleString('en-GB')} · {m.passRate} {percent(quiz.passRate)}
              </p>
            </div>
            <Table label={`${quiz.title}: ${m.correctRate}`}>
              <TableHeader>
                <TableRow>
                  <TableHead>{m.question}</TableHead>
                  <TableHead className="text-right">{m.answers}</TableHead>
                  <TableHead className="text-right">{m.correctRate}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {quiz.questions.map((question, i) => (
                  <TableRow key={`${i}-${question.prompt}`}>
                    <TableCell className="whitespace-normal break-words">{question.prompt}</TableCell>
                    <TableCell className="text-right tabular-nums">{question.answers.toLocaleString('en-GB')}</TableCell>
                    <TableCell className="text-right tabular-nums">
                      <span className="inline-flex items-center justify-end gap-2">
                        <span aria-hidden="true" className="hidden h-2 w-16 overflow-hidden rounded-full bg-muted sm:inline-block">
                          <span className="block h-full rounded-full bg-primary" style={{ width: percent(question.correctRate) }} />
                        </span>
                        {percent(question.correctRate)}
                      </span>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </section>
        ))}
      </CardContent>
    </Card>
  );
}
