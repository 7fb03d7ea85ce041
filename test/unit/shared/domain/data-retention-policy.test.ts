import { expect } from 'chai';
import {
  columnsOf,
  kindOfType,
  pastRetention,
  policyInForce,
  policyOf,
  replacedPolicy,
  type DataRetentionPolicy,
} from '../../../../shared/retention/rules.js';
import { retentionMoves as stateMoves } from '../../../../shared/state/machine.js';
import { retentionMoves as cvMoves, type CvFacts } from '../../../../shared/configuration-versions/machine.js';

const DAY = 86_400_000;
const older = (days: number): DataRetentionPolicy => ({ id: 'drp-a', kind: 'delete-older', days });
const keep: DataRetentionPolicy = { id: 'drp-k', kind: 'dont-delete', days: null };

describe('data retention policies', () => {
  it('keep the policy (and its id) when its kind stays, and make a new one when it changes', () => {
    const fresh = () => 'drp-new';
    expect(replacedPolicy(null, { kind: 'delete-older', days: 3 }, fresh)).to.deep.equal({
      policy: { id: 'drp-new', kind: 'delete-older', days: 3 },
      created: true,
    });
    expect(replacedPolicy(older(3), { kind: 'delete-older', days: 9 }, fresh)).to.deep.equal({
      policy: older(9),
      created: false,
    });
    expect(replacedPolicy(older(3), { kind: 'dont-delete', days: null }, fresh)).to.deep.equal({
      policy: { id: 'drp-new', kind: 'dont-delete', days: null },
      created: true,
    });
  });

  it('store a policy in three columns and read it back', () => {
    for (const p of [older(5), keep, null]) expect(policyOf(columnsOf(p))).to.deep.equal(p);
    expect(kindOfType('data-retention-policies')).to.equal('delete-older');
    expect(kindOfType('data-retention-policy-dont-deletes')).to.equal('dont-delete');
  });

  it("take the workspace's own policy over its organization's, and delete only past a delete-older policy's days", () => {
    const now = new Date('2026-12-02T12:00:00Z');
    const aged = (days: number) => new Date(now.getTime() - days * DAY);
    expect(policyInForce(null, older(30))).to.deep.equal(older(30));
    expect(policyInForce(keep, older(30))).to.deep.equal(keep);
    expect(pastRetention(policyInForce(older(10), older(30)), aged(20), now)).to.equal(true);
    expect(pastRetention(policyInForce(null, older(30)), aged(20), now)).to.equal(false);
    expect(pastRetention(older(30), aged(31), now)).to.equal(true);
    expect(pastRetention(policyInForce(keep, older(1)), aged(400), now)).to.equal(false);
    expect(pastRetention(null, aged(400), now)).to.equal(false);
  });

  it("delete a state version's data as the actions would, never the current one", () => {
    expect(stateMoves({ status: 'finalized', isCurrent: false })).to.deep.equal(['soft_delete', 'permanent_delete']);
    expect(stateMoves({ status: 'backing_data_soft_deleted', isCurrent: false })).to.deep.equal(['permanent_delete']);
    expect(stateMoves({ status: 'finalized', isCurrent: true })).to.equal(null);
    for (const status of ['pending', 'discarded', 'backing_data_permanently_deleted'] as const)
      expect(stateMoves({ status, isCurrent: false }), status).to.equal(null);
  });

  it("delete a configuration version's files as the actions would, never the current one nor one a run in progress uses", () => {
    const cv = (facts: Partial<CvFacts>): CvFacts => ({
      status: 'uploaded',
      source: 'tfe-api',
      isCurrent: false,
      activeRuns: 0,
      hasBackingData: true,
      ...facts,
    });
    expect(cvMoves(cv({}))).to.deep.equal(['soft_delete', 'permanent_delete']);
    expect(cvMoves(cv({ status: 'backing_data_soft_deleted' }))).to.deep.equal(['permanent_delete']);
    expect(cvMoves(cv({ isCurrent: true }))).to.equal(null);
    expect(cvMoves(cv({ activeRuns: 1 }))).to.equal(null);
    expect(cvMoves(cv({ source: 'github' }))).to.equal(null);
    for (const status of ['pending', 'archived', 'errored', 'backing_data_permanently_deleted'] as const)
      expect(cvMoves(cv({ status })), status).to.equal(null);
  });
});
