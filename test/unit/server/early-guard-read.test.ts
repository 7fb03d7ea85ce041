import { expect } from 'chai';
import { earlyGuardReadOf } from '../../../server/guards.js';
import { EarlyGuardRead } from '../../../shared/identity/access.queries.js';

describe('the guard read made with the token lookup', () => {
  it('is named only for the reads it is made for, with the key decoded as the router does', () => {
    expect(earlyGuardReadOf('GET', '/workspaces/ws-1')?.key).to.deep.equal(['ws-1']);
    expect(earlyGuardReadOf('GET', '/runs/run-%41')?.key).to.deep.equal(['run-A']);
    expect(earlyGuardReadOf('GET', '/organizations/acme/workspaces/prod%20eu')?.key).to.deep.equal(['acme', 'prod eu']);
    expect(earlyGuardReadOf('POST', '/organizations/acme/workspaces')?.key).to.deep.equal(['acme']);
    expect(earlyGuardReadOf('GET', '/organizations/acme/entitlement-set')?.key).to.deep.equal(['acme']);
    expect(earlyGuardReadOf('GET', '/plans/plan-1')?.key).to.deep.equal(['plan-1']);
    expect(earlyGuardReadOf('GET', '/applies/apply-1')?.read).to.not.equal(
      earlyGuardReadOf('GET', '/plans/plan-1')?.read,
    );
    expect(earlyGuardReadOf('GET', '/plans/plan-1/json-output')).to.equal(null);
    expect(earlyGuardReadOf('GET', '/configuration-versions/cv-1')?.key).to.deep.equal(['cv-1']);
    expect(earlyGuardReadOf('GET', '/runs/run-1/run-events')?.read).to.equal(
      earlyGuardReadOf('GET', '/runs/run-1')?.read,
    );
    expect(earlyGuardReadOf('GET', '/policy-checks/polchk-1')?.key).to.deep.equal(['polchk-1']);
    expect(earlyGuardReadOf('GET', '/task-stages/ts-1')?.key).to.deep.equal(['ts-1']);
    expect(earlyGuardReadOf('GET', '/task-stages/ts-1')?.read).to.not.equal(
      earlyGuardReadOf('GET', '/policy-checks/polchk-1')?.read,
    );
    expect(earlyGuardReadOf('POST', '/task-stages/ts-1/actions/override')).to.equal(null);
    expect(earlyGuardReadOf('GET', '/policy-checks/polchk-1/output')).to.equal(null);
    expect(earlyGuardReadOf('GET', '/configuration-versions/cv-1/download')).to.equal(null);
    expect(earlyGuardReadOf('POST', '/workspaces/ws-1/configuration-versions')?.key).to.deep.equal(['ws-1']);
    expect(earlyGuardReadOf('POST', '/workspaces/ws-1/configuration-versions')?.read).to.not.equal(
      earlyGuardReadOf('GET', '/workspaces/ws-1')?.read,
    );
    expect(earlyGuardReadOf('GET', '/workspaces/ws-1/configuration-versions')).to.equal(null);
    expect(earlyGuardReadOf('GET', '/runs/run-1')?.read).to.not.equal(
      earlyGuardReadOf('GET', '/workspaces/ws-1')?.read,
    );
    expect(earlyGuardReadOf('PATCH', '/workspaces/ws-1')).to.equal(null);
    expect(earlyGuardReadOf('GET', '/workspaces/ws-1/runs')).to.equal(null);
    expect(earlyGuardReadOf('DELETE', '/organizations/acme/workspaces/prod')).to.equal(null);
    expect(earlyGuardReadOf('GET', '/runs/%E0%A4%A')).to.equal(null);
  });

  it('is taken once, by its own read and key only', () => {
    const workspace = earlyGuardReadOf('GET', '/workspaces/ws-1')!;
    const run = earlyGuardReadOf('GET', '/runs/run-1')!;
    const row = {
      id: 'ws-1',
      organization_name: 'acme',
      membership_teams: [{ id: 'team-1', is_owners: true, organization_access: null }],
    };
    const ahead = new EarlyGuardRead(workspace.read, ['ws-1'], row);
    expect(ahead.take(run.read, ['ws-1'])).to.equal(null);
    expect(ahead.take(workspace.read, ['ws-2'])).to.equal(null);
    expect(ahead.take(workspace.read, ['ws-1', 'more'])).to.equal(null);
    const taken = ahead.take<{ id: string; organization_name: string }>(workspace.read, ['ws-1']);
    expect(taken?.found).to.deep.equal({ row: { id: 'ws-1', organization_name: 'acme' }, teams: row.membership_teams });
    expect(ahead.take(workspace.read, ['ws-1'])).to.equal(null);
  });

  it('tells the guard when it found nothing, so that the guard answers 404 without reading again', () => {
    const workspace = earlyGuardReadOf('GET', '/workspaces/ws-9')!;
    expect(new EarlyGuardRead(workspace.read, ['ws-9'], undefined).take(workspace.read, ['ws-9'])).to.deep.equal({
      found: undefined,
    });
  });
});
