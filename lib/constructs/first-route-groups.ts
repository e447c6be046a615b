/**
 * The routes deployed in the first four route groups (docs/decisions/0017-api-route-groups.md, "Eight groups"): each
 * stays in the group its name hashes to modulo 4, where its function was made. Frozen: a route added later goes to the
 * next four groups (4 + its hash modulo 4), so growing the groups never moves a deployed function. A route removed
 * may leave its name here; never add one.
 */
export const FIRST_GROUP_ROUTES: ReadonlySet<string> = new Set([
  'add-domain', 'admin-audit', 'admin-courses', 'admin-stats', 'admin-support', 'affiliate-commissions',
  'affiliate-payout', 'affiliate-payout-export', 'ai-course-outline', 'ai-lesson-draft', 'ai-quiz-from-lesson',
  'assign-seat', 'billing-checkout', 'billing-portal', 'bundle-checkout', 'cancel-session', 'certificate-status-list',
  'certificate-status-list-page', 'complete-lesson', 'complete-upload', 'connect-payouts', 'course-certificates',
  'course-checkout', 'course-licenses', 'create-affiliate', 'create-api-key', 'create-bundle', 'create-comment',
  'create-coupon', 'create-course', 'create-lesson', 'create-membership', 'create-sequence', 'create-support-request',
  'create-user', 'create-webhook-endpoint', 'creator-analytics', 'creator-course-report', 'creator-export',
  'creator-payouts', 'creator-stats', 'crm-learner', 'crm-learners', 'delete-bundle', 'delete-comment',
  'delete-coupon', 'delete-course', 'delete-domain', 'delete-file', 'delete-lesson', 'delete-membership',
  'delete-sequence', 'delete-webhook-endpoint', 'edit-comment', 'edit-membership', 'enable-webhook-endpoint',
  'enroll-learner', 'file-url', 'follow-up-support-request', 'generate-landing-page', 'get-ai-prices', 'get-branding',
  'get-course', 'get-credits', 'get-integrations', 'get-landing-page', 'get-me', 'get-public-membership',
  'get-public-profile', 'get-subscription', 'google-callback', 'google-connect', 'grade-assignment', 'grant-license',
  'health', 'hide-comment', 'import-members', 'leader-licenses', 'leader-reports', 'leader-sessions',
  'leader-settings', 'leader-summary', 'learner-browse', 'learner-certificates', 'learner-course',
  'learner-course-outline', 'learner-courses', 'learner-file-url', 'learner-lesson', 'learner-memberships',
  'learner-profile', 'learner-sessions', 'learner-summary', 'license-members', 'list-affiliates', 'list-api-keys',
  'list-bundles', 'list-campaigns', 'list-comments', 'list-coupons', 'list-course-enrollments', 'list-course-sessions',
  'list-courses', 'list-domains', 'list-email-automations', 'list-email-templates', 'list-membership-members',
  'list-memberships', 'list-sales', 'list-sequences', 'list-submissions', 'list-support-requests', 'list-users',
  'list-webhook-deliveries', 'list-webhook-endpoints', 'membership-checkout', 'membership-portal', 'my-submission',
  'pin-comment', 'public-bundle', 'public-certificate', 'public-course', 'public-creator', 'public-domain',
  'public-issuer', 'public-issuer-key', 'public-landing-page', 'public-school-logo', 'publish-landing-page',
  'purchase-credits', 'quiz-attempt', 'record-course-view', 'referral-link', 'refund-sale', 'remove-enrollment',
  'reorder-lessons', 'reply-support-request', 'report-comment', 'retry-webhook-delivery', 'revoke-api-key',
  'revoke-certificate', 'revoke-seat', 'save-branding', 'save-email-automation', 'save-email-template',
  'save-integrations', 'save-landing-page', 'save-leader-settings', 'save-learner-notes', 'save-learner-profile',
  'save-public-profile', 'schedule-session', 'send-campaign', 'send-recommendation', 'sequence-stats',
  'session-calendar', 'start-avatar-upload', 'start-logo-upload', 'start-upload', 'stripe-connect-webhook',
  'stripe-webhook', 'submit-assignment', 'test-integration', 'unanswered-questions', 'unpublish-landing-page',
  'unsubscribe', 'unsubscribe-page', 'update-bundle', 'update-coupon', 'update-course', 'update-lesson',
  'update-license', 'update-sequence', 'update-session', 'update-user', 'upload-part-urls', 'uploaded-parts',
  'use-credits', 'v1-enroll-learner', 'v1-get-course', 'v1-list-courses', 'v1-list-learners', 'v1-list-sales',
  'v1-openapi', 'v1-remove-enrollment', 'verify-certificate', 'verify-domain',
]);
