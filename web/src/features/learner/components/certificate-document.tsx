import { Award } from 'lucide-react';
import { cn } from '@/lib/utils.ts';

/** The day on the certificate, written out ('20 November 2026'). */
const longDay = (iso: string): string => new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric' });

/** A course title's size by its length: a long one steps down so it stays within two or three lines. */
const titleSize = (title: string): string => (title.length > 110 ? 'text-[2.6cqw]' : title.length > 60 ? 'text-[3.3cqw]' : 'text-[4.3cqw]');

export interface CertificateDocumentProps {
  id: string;
  /** Who it is awarded to, as printed: the name the certificate carries (`learnerName`), else the learner's email. */
  learner: string;
  courseTitle: string;
  creatorName: string;
  issuedAt: string;
  verifyUrl: string;
  className?: string;
}

/**
 * A certificate of completion as a sheet of A4 landscape (297 x 210): a double frame, the title, who it is awarded to,
 * the course, its creator, the day it was issued, and at the foot where anyone checks it. Every size is a share of the
 * sheet's width (container units), so the same sheet fills a phone's preview and the printed page alike.
 */
export function CertificateDocument({ id, learner, courseTitle, creatorName, issuedAt, verifyUrl, className }: CertificateDocumentProps) {
  return (
    <article
      aria-label="Certificate of Completion"
      data-certificate-sheet=""
      className={cn('@container relative aspect-[297/210] w-full overflow-hidden bg-white font-serif text-slate-900 [print-color-adjust:exact]', className)}
    >
      {/* The frame: a heavy outer rule and a fine gold one inside it. */}
      <div aria-hidden="true" className="absolute inset-[2.4cqw] border-[0.45cqw] border-slate-800" />
      <div aria-hidden="true" className="absolute inset-[3.5cqw] border-[0.14cqw] border-yellow-700/80" />

      <div className="absolute inset-[5cqw] flex flex-col items-center text-center">
        <p className="font-sans text-[1.15cqw] font-semibold tracking-[0.45em] text-yellow-800 uppercase">Course Platform</p>
        <span aria-hidden="true" className="mt-[1.6cqw] grid size-[5.2cqw] place-items-center rounded-full bg-yellow-50 text-yellow-700 ring-[0.25cqw] ring-yellow-700/70">
          <Award className="size-[3cqw]" strokeWidth={1.6} />
        </span>
        <h1 className="mt-[1.4cqw] text-[4.4cqw] leading-none font-semibold tracking-wide">Certificate of Completion</h1>
        <div aria-hidden="true" className="mt-[1.4cqw] h-[0.14cqw] w-[14cqw] bg-yellow-700/80" />

        <div className="my-auto grid w-full justify-items-center py-[1cqw]">
          <p className="text-[1.55cqw] text-slate-600 italic">This certificate is awarded to</p>
          <p className="mt-[0.8cqw] max-w-full text-[3cqw] leading-tight [overflow-wrap:anywhere]">{learner}</p>
          <p className="mt-[1.6cqw] text-[1.55cqw] text-slate-600 italic">for completing the course</p>
          <p className={cn('mt-[0.8cqw] line-clamp-3 max-w-[80cqw] leading-[1.15] font-bold text-balance [overflow-wrap:anywhere]', titleSize(courseTitle))}>{courseTitle}</p>
          <p className="mt-[1cqw] max-w-[80cqw] text-[1.8cqw] text-slate-700 [overflow-wrap:anywhere]">from {creatorName}</p>
        </div>

        <div className="grid w-full grid-cols-[1fr_auto_1fr] items-end gap-[4cqw] px-[4cqw]">
          <div className="grid justify-items-center gap-[0.6cqw]">
            <p className="text-[1.5cqw]">Issued {longDay(issuedAt)}</p>
            <div aria-hidden="true" className="h-[0.1cqw] w-full bg-slate-400" />
            <p className="font-sans text-[0.95cqw] tracking-[0.2em] text-slate-500 uppercase">Date</p>
          </div>
          <span aria-hidden="true" className="grid size-[7.5cqw] place-items-center rounded-full border-[0.2cqw] border-yellow-700/80 text-yellow-800">
            <span className="grid size-[6.4cqw] place-items-center rounded-full border-[0.1cqw] border-dashed border-yellow-700/70 font-sans text-[0.85cqw] leading-tight font-semibold tracking-[0.15em] uppercase">
              Verified
              <br />
              online
            </span>
          </span>
          <div className="grid justify-items-center gap-[0.6cqw]">
            <p className="text-[1.5cqw] font-semibold">Course Platform</p>
            <div aria-hidden="true" className="h-[0.1cqw] w-full bg-slate-400" />
            <p className="font-sans text-[0.95cqw] tracking-[0.2em] text-slate-500 uppercase">Issuer</p>
          </div>
        </div>

        <p className="mt-[1.8cqw] max-w-full font-sans text-[0.95cqw] text-slate-500 [overflow-wrap:anywhere]">
          Verify this certificate at <span className="text-slate-700">{verifyUrl}</span>
          <span aria-hidden="true"> · </span>
          Certificate ID <span className="font-mono text-slate-700">{id}</span>
        </p>
      </div>
    </article>
  );
}
