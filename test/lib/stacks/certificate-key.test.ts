import type { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { resourcesOf, synthPlatform, withNestedStacks } from './synth-platform.ts';

/**
 * The certificate signing key (issue 27 point 3; decision 0030): an asymmetric KMS key in the stateful stack that
 * only the signing job may use, to Sign and read its public key; and every kms:Decrypt a function holds is bound to
 * its purpose by an encryption-context condition.
 */
const { data, api, jobs } = synthPlatform();
const dataTemplate = Template.fromStack(data);

type Statement = { Action: string | string[]; Resource: unknown; Condition?: Record<string, Record<string, unknown>> };
type Policy = { Properties: { Roles: { Ref: string }[]; PolicyDocument: { Statement: Statement[] } } };

/** Every statement of every IAM policy of a stack (nested route groups included), with the roles it is attached to. */
const statementsOf = (stack: Stack) =>
  Object.values(resourcesOf(withNestedStacks(stack), 'AWS::IAM::Policy') as unknown as Record<string, Policy>).flatMap((p) =>
    p.Properties.PolicyDocument.Statement.map((s) => ({ roles: p.Properties.Roles.map((r) => r.Ref), actions: [s.Action].flat(), statement: s })),
  );

describe('the certificate signing key', () => {
  it('is an ECC_NIST_P256 SIGN_VERIFY key, retained under a fixed logical id, its ARN an output', () => {
    expect(dataTemplate.toJSON().Resources.CertificateSigningKey).toMatchObject({
      Type: 'AWS::KMS::Key',
      Properties: { KeySpec: 'ECC_NIST_P256', KeyUsage: 'SIGN_VERIFY' },
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
    });
    expect(Object.keys(dataTemplate.findOutputs('CertificateKeyArn'))).toEqual(['CertificateKeyArn']);
  });

  it('lets the certificate-issuer job kms:Sign and kms:GetPublicKey, nothing else; no route and no other job holds it', () => {
    const signing = [...statementsOf(jobs), ...statementsOf(api)].filter((s) => s.actions.some((a) => a === 'kms:Sign' || a === 'kms:GetPublicKey'));
    expect(signing).toHaveLength(1);
    expect(signing[0]!.actions.sort()).toEqual(['kms:GetPublicKey', 'kms:Sign']);
    expect(signing[0]!.roles).toHaveLength(1);
    expect(signing[0]!.roles[0]).toMatch(/^CertificateIssuer/);
    expect(JSON.stringify(signing[0]!.statement.Resource)).toContain('CertificateSigningKey');
    const issuerRole = signing[0]!.roles[0]!;
    const issuerActions = statementsOf(jobs).filter((s) => s.roles.includes(issuerRole)).flatMap((s) => s.actions);
    expect(issuerActions.filter((a) => a.startsWith('kms:'))).not.toContain('kms:Decrypt');
  });

  it('binds every kms:Decrypt a function holds to its purpose with an encryption-context condition', () => {
    const decrypts = [...statementsOf(jobs), ...statementsOf(api), ...statementsOf(data)].filter((s) => s.actions.some((a) => a === 'kms:Decrypt' || a === 'kms:*'));
    expect(decrypts.length).toBeGreaterThan(0);
    for (const { statement } of decrypts) {
      const condition = JSON.stringify(statement.Condition ?? {});
      expect(condition, JSON.stringify(statement)).toMatch(/kms:EncryptionContext/);
    }
  });
});
