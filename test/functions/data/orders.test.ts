import { DynamoDBDocumentClient, GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
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
  it('writes the PaymentIntent first on its own, then the order (with its event’s id) and queued mail in one transaction: no event record, no sales counter (decisions 0040, 0054)', async () => {
    dynamo = mockClient(DynamoDBDocumentClient);
    dynamo.on(GetCommand).resolves({ Item: { pk: 'ORDER#ord_1', sk: 'ORDER', type: 'Order', ...pending } });
    dynamo.on(PutCommand).resolves({});
    dynamo.on(TransactWriteCommand).resolves({});
    expect(await dynamoOrders().markPaid({ event: { id: 'evt_1', type: 'checkout.session.completed' }, orderId: 'ord_1', paid, receipt })).toBe('applied');
    expect(dynamo.commandCalls(PutCommand).map((c) => c.args[0].input.Item)).toEqual([{ pk: 'PAYINTENT#pi_1', sk: 'ORDER', type: 'OrderIntent', orderId: 'ord_1' }]);
    const [call] = dynamo.commandCalls(TransactWriteCommand);
    const items = call!.args[0].input.TransactItems ?? [];
    const keys = items.map((item) => {
      const key = (item.Put?.Item ?? item.Update?.Key ?? item.Delete?.Key ?? item.ConditionCheck?.Key) as { pk: string; sk: string };
      return `${Object.keys(item)[0]} ${key.pk.replace(/#\d+$/, '#<shard>')} / ${key.sk.replace(/#.*$/, '#…')}`;
    });
    expect(keys).toEqual(['Update ORDER#ord_1 / ORDER', 'Put MAILQUEUE / 2026-11-25T10:05:00.000Z#…']);
    expect(items[0]!.Update).toMatchObject({ ConditionExpression: '#status = :pending', ExpressionAttributeValues: expect.objectContaining({ ':event': 'evt_1', ':paid': 'paid' }) });
    expect(items[0]!.Update!.UpdateExpression).toContain('paidEventId = :event');
  });

  it('moves the order with a plain conditional Update when nothing goes with it (a flash sale’s order: no transaction, decision 0054)', async () => {
    dynamo = mockClient(DynamoDBDocumentClient);
    dynamo.on(GetCommand).resolves({ Item: { pk: 'ORDER#ord_1', sk: 'ORDER', type: 'Order', ...pending } });
    dynamo.on(PutCommand).resolves({});
    dynamo.on(UpdateCommand).resolves({});
    expect(await dynamoOrders().markPaid({ event: { id: 'evt_1', type: 'checkout.session.completed' }, orderId: 'ord_1', paid })).toBe('applied');
    expect(dynamo.commandCalls(TransactWriteCommand)).toHaveLength(0);
    expect(dynamo.commandCalls(PutCommand)).toHaveLength(1);
    const [update] = dynamo.commandCalls(UpdateCommand);
    expect(update!.args[0].input).toMatchObject({ Key: { pk: 'ORDER#ord_1', sk: 'ORDER' }, ConditionExpression: '#status = :pending', ExpressionAttributeValues: expect.objectContaining({ ':event': 'evt_1', ':paid': 'paid' }) });
  });

  it('answers a redelivery of the paying event as a duplicate when the plain Update finds the order paid by it', async () => {
    dynamo = mockClient(DynamoDBDocumentClient);
    dynamo.on(GetCommand).resolvesOnce({ Item: { pk: 'ORDER#ord_1', sk: 'ORDER', type: 'Order', ...pending } }).resolves({ Item: { pk: 'ORDER#ord_1', sk: 'ORDER', type: 'Order', ...pending, status: 'paid', paidEventId: 'evt_1' } });
    dynamo.on(PutCommand).resolves({});
    dynamo.on(UpdateCommand).rejects(Object.assign(new Error('The conditional request failed'), { name: 'ConditionalCheckFailedException' }));
    expect(await dynamoOrders().markPaid({ event: { id: 'evt_1', type: 'checkout.session.completed' }, orderId: 'ord_1', paid })).toBe('duplicate');
  });
});
