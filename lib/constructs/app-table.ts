import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, type CfnTable, ProjectionType, StreamViewType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { tableSchema } from '#data/table-schema.ts';

/**
 * The single table, built from functions/data/table-schema.ts (the local cloud creates its copy from the same
 * declaration), with its stream of new and old images. Stateful: retained on stack deletion, deletion-protected, point-in-time recovery on, and a fixed
 * logical id so a refactor of the construct tree never replaces it.
 */
export class AppTable extends Construct {
  readonly table: Table;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.table = new Table(this, 'Table', {
      partitionKey: { name: tableSchema.partitionKey, type: AttributeType.STRING },
      sortKey: { name: tableSchema.sortKey, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: tableSchema.ttlAttribute,
      // Read by the stream aggregator (docs/decisions/0040-stream-aggregator.md).
      stream: StreamViewType[tableSchema.streamView],
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    for (const index of tableSchema.indexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
        projectionType: ProjectionType.ALL,
      });
    }
    (this.table.node.defaultChild as CfnTable).overrideLogicalId('Table');
  }
}
