import { expect } from 'chai';
import {
  accessOfLevel,
  accessOfTeamWorkspace,
  allows,
  FULL_WORKSPACE_ACCESS,
  teamWorkspacePermissions,
  widerAccess,
  WORKSPACE_ACCESS_LEVELS,
} from '../../../../shared/identity/permissions.rules.js';
import { executionAfter } from '../../../../shared/agent-pools/rules.js';
import { backingDataRefusal } from '../../../../shared/state/machine.js';
import type { Field } from '../../../../shared/platform/errors.js';

describe('workspace permissions', () => {
  it('orders the fixed levels: each allows at least what the one below it does', () => {
    const needs = [
      'read',
      'queue-plans',
      'apply',
      'read-variables',
      'write-variables',
      'read-state-outputs',
      'read-state',
      'write-state',
      'lock',
      'manage-run-tasks',
      'admin',
    ] as const;
    const granted = WORKSPACE_ACCESS_LEVELS.map((l) => needs.filter((n) => allows(accessOfLevel(l), n)));
    for (let i = 1; i < granted.length; i++) expect(granted[i]).to.include.members(granted[i - 1]);
    expect(granted[0]).to.deep.equal(['read', 'read-variables', 'read-state-outputs']);
    expect(needs.every((n) => allows(FULL_WORKSPACE_ACCESS, n))).to.equal(true);
    expect(allows(null, 'read')).to.equal(false);
  });

  it('gives a custom access exactly its permissions, never administration', () => {
    const a = accessOfTeamWorkspace('custom', {
      runs: 'read',
      variables: 'none',
      'state-versions': 'read',
      'sentinel-mocks': 'none',
      'workspace-locking': true,
      'run-tasks': true,
    });
    expect([
      allows(a, 'queue-plans'),
      allows(a, 'read-variables'),
      allows(a, 'read-state'),
      allows(a, 'write-state'),
      allows(a, 'lock'),
      allows(a, 'manage-run-tasks'),
      allows(a, 'admin'),
    ]).to.deep.equal([false, false, true, false, true, true, false]);
  });

  it('takes the stronger of each permission over two accesses', () => {
    const a = accessOfTeamWorkspace('custom', {
      runs: 'apply',
      variables: 'none',
      'state-versions': 'none',
      'sentinel-mocks': 'none',
      'workspace-locking': false,
      'run-tasks': false,
    });
    expect(widerAccess(a, accessOfLevel('read'))).to.deep.include({
      runs: 'apply',
      variables: 'read',
      'state-versions': 'read-outputs',
      admin: false,
    });
    expect(widerAccess(accessOfLevel('read'), FULL_WORKSPACE_ACCESS)).to.deep.equal(FULL_WORKSPACE_ACCESS);
  });

  it('refuses a permission a fixed level does not imply, keeps the earlier ones of a custom access, and defaults the rest', () => {
    expect(teamWorkspacePermissions('read', { runs: 'apply' }, null)).to.deep.equal({
      problem: {
        attribute: 'runs',
        detail: "Runs is read-only when access level is 'read'; use the 'custom' access level to set this attribute.",
      },
    });
    expect(teamWorkspacePermissions('write', { runs: 'apply' }, null)).to.deep.equal({ permissions: null });
    const before = accessOfLevel('admin');
    const { admin: _admin, ...adminPermissions } = before;
    expect(teamWorkspacePermissions('custom', { runs: 'plan' }, adminPermissions)).to.deep.equal({
      permissions: { ...adminPermissions, runs: 'plan' },
    });
    expect(teamWorkspacePermissions('custom', {}, null)).to.deep.equal({
      permissions: {
        runs: 'read',
        variables: 'none',
        'state-versions': 'none',
        'sentinel-mocks': 'none',
        'workspace-locking': false,
        'run-tasks': false,
      },
    });
  });
});

describe('execution modes and agent pools', () => {
  const P: Field = { attribute: 'p' };
  it('puts a pool with the agent mode only', () => {
    expect(executionAfter({ mode: 'remote', pool: null }, { pool: 'apool-1' }, 'Default agent pool', P)).to.deep.equal({
      problem: "Default agent pool must not be specified unless using 'agent' execution mode",
      field: P,
    });
    expect(executionAfter({ mode: 'remote', pool: null }, { mode: 'agent' }, 'Agent pool', P)).to.deep.equal({
      problem: "Agent pool must be specified when using 'agent' execution mode",
      field: P,
    });
    expect(
      executionAfter({ mode: 'remote', pool: null }, { mode: 'agent', pool: 'apool-1' }, 'Agent pool', P),
    ).to.deep.equal({ mode: 'agent', pool: 'apool-1' });
    expect(executionAfter({ mode: 'agent', pool: 'apool-1' }, { mode: 'remote' }, 'Agent pool', P)).to.deep.equal({
      mode: 'remote',
      pool: null,
    });
    expect(executionAfter({ mode: 'agent', pool: 'apool-1' }, { mode: 'agent' }, 'Agent pool', P)).to.deep.equal({
      mode: 'agent',
      pool: 'apool-1',
    });
    // What a request does not touch stays as it was, even an agent mode stored without a pool.
    expect(executionAfter({ mode: 'agent', pool: null }, {}, 'Agent pool', P)).to.deep.equal({
      mode: 'agent',
      pool: null,
    });
  });
});

describe('state version backing data', () => {
  it('soft deletes finalized former versions, restores soft deleted ones, and makes a soft delete permanent', () => {
    expect(backingDataRefusal('soft_delete', { status: 'finalized', isCurrent: false })).to.equal(null);
    expect(backingDataRefusal('soft_delete', { status: 'finalized', isCurrent: true })).to.match(
      /current state version/,
    );
    expect(backingDataRefusal('restore', { status: 'backing_data_soft_deleted', isCurrent: false })).to.equal(null);
    expect(backingDataRefusal('restore', { status: 'backing_data_permanently_deleted', isCurrent: false })).to.match(
      /cannot restore/,
    );
    expect(backingDataRefusal('permanent_delete', { status: 'finalized', isCurrent: false })).to.match(
      /cannot permanently delete/,
    );
    expect(backingDataRefusal('permanent_delete', { status: 'backing_data_soft_deleted', isCurrent: false })).to.equal(
      null,
    );
  });
});
