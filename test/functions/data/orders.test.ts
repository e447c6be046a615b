import { DynamoDBDocumentClient, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { dynamoOrders } from '#data/orders.ts';
import { pendingOrder } from '#test/functions/fakes/orders.ts';

process.env['TABLE_NAME'] ??= 'unit-table';

/**
 * The paid order's transaction (data/orders.ts markPaid), as sent: what a flash sale pays per order (decision 0038).
 * The order's own move from pending is its first item and carries the paying event's id; no event record of its own.
 */
const pending = pendingOrder({ id: 'ord_1', creatorId: 'creator-1', checkoutSessionId: 'cs_1' });
const paid = { amount: 2900, discount: 0, buyerEmail: 'ann@example.com', learnerId: 'l1', paymentIntentId: 'pi_1', paidAt: '2026-11-25T10:05:00.000Z' };
const receipt = { id: 'mail-1', to: 'ann@example.com', subject: 'Receipt', text: 't', html: '<p>t</p>', queuedAt: paid.paidAt, dueAt: paid.paidAt, tries: 0 };

let dynamo: ReturnType<typeof mockClient> | undefined;
afterEach(() => {
  dynamo?.restore();
  dynamo = undefined;
});

describe('a paid order’s transaction', () => {
  it('writes the order (with its event’s id), the PaymentIntent and the receipt: no event record, and no sales counter (the stream aggregator’s, decision 0040)', async () => {
    dynamo = mockClient(DynamoDBDocumentClient);
    dynamo.on(GetCommand).resolves({ Item: { pk: 'ORDER#ord_1', sk: 'ORDER', type: 'Order', ...pending } });
    dynamo.on(TransactWriteCommand).resolves({});
    expect(await dynamoOrders().markPaid({ event: { id: 'evt_1', type: 'checkout.session.completed' }, orderId: 'ord_1', paid, receipt })).toBe('applied');
    const [call] = dynamo.commandCalls(TransactWriteCommand);
    const items = call!.args[0].input.TransactItems ?? [];
    const keys = items.map((item) => {
      const key = (item.Put?.Item ?? item.Update?.Key ?? item.Delete?.Key ?? item.ConditionCheck?.Key) as { pk: string; sk: string };
      return `${Object.keys(item)[0]} ${key.pk.replace(/#\d+$/, '#<shard>')} / ${key.sk.replace(/#.*$/, '#…')}`;
    });
    expect(keys).toEqual([
      'Update ORDER#ord_1 / ORDER',
      'Put PAYINTENT#pi_1 / ORDER',
      'Put MAILQUEUE / 2026-11-25T10:05:00.000Z#…',
    ]);
    expect(items[0]!.Update).toMatchObject({ ConditionExpression: '#status = :pending', ExpressionAttributeValues: expect.objectContaining({ ':event': 'evt_1', ':paid': 'paid' }) });
    expect(items[0]!.Update!.UpdateExpression).toContain('paidEventId = :event');
  });
});
