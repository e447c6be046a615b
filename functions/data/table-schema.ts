/**
 * The one table's physical shape, declared once: the CDK data stack and the local cloud both create the
 * table from this. Entity key layouts live in the entity modules beside this file (see docs/data-model.md).
 */
export const tableSchema = {
  partitionKey: 'pk',
  sortKey: 'sk',
  /** Every GSI projects ALL attributes; keys are strings. */
  indexes: [
    { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
    { name: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
    { name: 'gsi3', partitionKey: 'gsi3pk', sortKey: 'gsi3sk' },
  ],
  /** Epoch seconds; DynamoDB deletes the item some time after (processed Stripe events, idempotency rows). */
  ttlAttribute: 'expiresAt',
  /** The table's stream: both images of every change, read by the stream aggregator (docs/decisions/0040). */
  streamView: 'NEW_AND_OLD_IMAGES',
} as const;
