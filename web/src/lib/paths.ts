/**
 * Every path of the SPA, written once (SPEC.md section 2's route table and the sidebar's entries). The route
 * definitions, the sidebar menus, the role redirects and every link or redirect in a screen read them from here,
 * so a path changes in one place. Route definitions use these absolute paths even for nested routes (react-router
 * accepts an absolute child path that starts with its parent's).
 *
 * Plain strings, no imports: the router's first chunk holds this module.
 */
const home = '/';
const dashboard = '/dashboard';
const admin = `${dashboard}/admin`;
const creator = `${dashboard}/creator`;
const leader = `${dashboard}/leader`;
const learner = `${dashboard}/learner`;
const auth = '/auth';

export const paths = {
  /** The marketing page for anonymous visitors; a signed-in user is sent on to their dashboard. */
  home,
  /** The landing page's pricing section: where an abandoned checkout of an anonymous visitor's plan returns. */
  pricing: `${home}#pricing`,
  login: `${auth}/login`,
  signup: `${auth}/signup`,
  forgotPassword: `${auth}/forgot-password`,
  /** The target of the password-reset email's link (its address is built by the CustomMessage trigger). */
  resetPassword: '/reset-password',
  checkoutSuccess: '/checkout/success',
  /** Sends each role to its own dashboard. */
  dashboard,
  /** The public storefront, no sign-in: a course's page and a creator's page (links: publicCoursePath, creatorPagePath). */
  storefront: {
    course: '/c/:courseId',
    creator: '/u/:slug',
    /** A bundle's page: several of a creator's courses at one price (issue 34; link: publicBundlePath). */
    bundle: '/b/:bundleId',
    /** A membership's page: a monthly or yearly subscription to a creator's courses (issue 34; link: publicMembershipPath). */
    membership: '/m/:membershipId',
  },
  /**
   * Certificates outside the dashboard: the public page that checks one (no sign-in; links: verifyPath; the API hands
   * its absolute address as `verifyUrl`) and the learner's printable copy, saved as a PDF (certificatePrintPath).
   */
  certificates: {
    verify: '/verify/:id',
    print: '/certificates/:id/print',
  },
  /** The public API's reference (issue 31 point 3): /v1/openapi.json rendered, no sign-in. */
  apiReference: '/developers/api',
  admin: {
    dashboard: admin,
    analytics: `${admin}/analytics`,
    users: `${admin}/users`,
    emails: `${admin}/emails`,
    courses: `${admin}/courses`,
    settings: `${admin}/settings`,
    /** The settings page at its billing section (plans and AI credits): the dashboard's 'Billing Settings'. */
    billing: `${admin}/settings#billing`,
    /** The Support inbox: creators' requests, priority first, then oldest first (issue 29 point 4). */
    support: `${admin}/support`,
    /** The audit log: every admin action, newest first (issue 37 point 3). */
    audit: `${admin}/audit`,
  },
  creator: {
    dashboard: creator,
    courses: `${creator}/courses`,
    /** One course's editor (lessons, publishing, learners): `courseEditorPath(id)` builds a link to it. */
    course: `${creator}/courses/:courseId`,
    create: `${creator}/create`,
    landing: `${creator}/landing`,
    crm: `${creator}/crm`,
    integrations: `${creator}/integrations`,
    analytics: `${creator}/analytics`,
    profile: `${creator}/profile`,
    /** Discount codes for the creator's courses (the sidebar's Marketing group). */
    coupons: `${creator}/coupons`,
    /** Several courses sold together at one price (issue 34; Marketing group). */
    bundles: `${creator}/bundles`,
    /** A monthly or yearly subscription to the creator's courses (issue 34; Marketing group; Pro plan). */
    memberships: `${creator}/memberships`,
    /** Email sequences: emails that follow an enrolment, a completion or inactivity (issue 33; Marketing group). */
    sequences: `${creator}/sequences`,
    /** People who sell the creator's courses for a commission (the sidebar's Marketing group; Pro plan). */
    affiliates: `${creator}/affiliates`,
    /** Detailed reports per course and the CSV exports (the sidebar's Insights group; Pro plan). */
    reports: `${creator}/reports`,
    /** Ask for help and read the answers (issue 29 point 4; the reply's email links here). */
    support: `${creator}/support`,
    /** The school's name, colour and logo (issue 32; the sidebar's Marketing group; Pro plan). */
    branding: `${creator}/branding`,
    /** API keys and webhook endpoints (issue 31; the sidebar's Developers group; Pro plan). */
    developers: `${creator}/developers`,
    /** Custom domains (issue 32, Pro). */
    domains: `${creator}/domains`,
    /** Assignments handed in across the creator's courses, to grade (issue 35 point 2; the sidebar's Courses group). */
    submissions: `${creator}/submissions`,
  },
  leader: {
    dashboard: leader,
    groups: `${leader}/groups`,
    licenses: `${leader}/licenses`,
    reports: `${leader}/reports`,
    settings: `${leader}/settings`,
  },
  learner: {
    dashboard: learner,
    courses: `${learner}/courses`,
    /** The course player (route pattern); links use `learnerCoursePath(courseId)`. */
    course: `${learner}/courses/:courseId`,
    browse: `${learner}/browse`,
    certificates: `${learner}/certificates`,
    profile: `${learner}/profile`,
  },
} as const;

/** The learner's player of one course, optionally opened at one lesson. */
export function learnerCoursePath(courseId: string, lessonId?: string): string {
  const path = `${learner}/courses/${encodeURIComponent(courseId)}`;
  return lessonId ? `${path}?lesson=${encodeURIComponent(lessonId)}` : path;
}

/** The editor of one of the creator's courses. */
export function courseEditorPath(courseId: string): string {
  return `${creator}/courses/${encodeURIComponent(courseId)}`;
}

/** The search parameter that opens the course editor's Discussions card at a lesson (`?discussion=<lessonId>`). */
export const DISCUSSION_PARAM = 'discussion';

/** A course's editor scrolled to one lesson's discussion: where the dashboard's unanswered questions are answered. */
export function courseDiscussionPath(courseId: string, lessonId: string): string {
  return `${courseEditorPath(courseId)}?${DISCUSSION_PARAM}=${encodeURIComponent(lessonId)}`;
}

/** A course's public page (the storefront). */
export function publicCoursePath(courseId: string): string {
  return `/c/${encodeURIComponent(courseId)}`;
}

/** A bundle's public page (the storefront). */
export function publicBundlePath(bundleId: string): string {
  return `/b/${encodeURIComponent(bundleId)}`;
}

/** A membership's public page (the storefront). */
export function publicMembershipPath(membershipId: string): string {
  return `/m/${encodeURIComponent(membershipId)}`;
}

/** A creator's public page. */
export function creatorPagePath(slug: string): string {
  return `/u/${encodeURIComponent(slug)}`;
}

/** A certificate's public page, where anyone checks it. */
export function verifyPath(certificateId: string): string {
  return `/verify/${encodeURIComponent(certificateId)}`;
}

/** The learner's printable copy of one of their certificates (the browser's print dialog saves it as a PDF). */
export function certificatePrintPath(certificateId: string): string {
  return `/certificates/${encodeURIComponent(certificateId)}/print`;
}

/** The query parameter of the sign-in screen that names where to go once signed in. */
export const REDIRECT_PARAM = 'redirectTo';

/** The query parameter of the sign-in screen after one's account was deleted: it says the deletion is under way. */
export const ACCOUNT_DELETED_PARAM = 'accountDeleted';

/** The sign-in screen (or `to`), remembering `origin` so the visitor comes back to it after signing in. */
export function signInReturningTo(origin: string, to: string = paths.login): string {
  return `${to}?${REDIRECT_PARAM}=${encodeURIComponent(origin)}`;
}

/** An absolute URL of one of these paths on this origin (return addresses handed to the payment provider). */
export function urlOf(path: string): string {
  return `${window.location.origin}${path}`;
}
