import { expect } from 'chai';
import { readAheadOf } from '../../../server/guards.js';
import { ReadAhead } from '../../../shared/identity/access.queries.js';

describe('the guard read made with the token lookup', () => {
  it('is named only for the reads it is made for, with the key decoded as the router does', () => {
    expect(readAheadOf('GET', '/workspaces/ws-1')?.key).to.deep.equal(['ws-1']);
    expect(readAheadOf('GET', '/runs/run-%41')?.key).to.deep.equal(['run-A']);
    expect(readAheadOf('GET', '/organizations/acme/workspaces/prod%20eu')?.key).to.deep.equal(['acme', 'prod eu']);
    expect(readAheadOf('POST', '/organizations/acme/workspaces')?.key).to.deep.equal(['acme']);
    expect(readAheadOf('GET', '/organizations/acme/entitlement-set')?.key).to.deep.equal(['acme']);
    expect(readAheadOf('GET', '/plans/plan-1')?.key).to.deep.equal(['plan-1']);
    expect(readAheadOf('GET', '/applies/apply-1')?.read).to.not.equal(readAheadOf('GET', '/plans/plan-1')?.read);
    expect(readAheadOf('GET', '/plans/plan-1/json-output')).to.equal(null);
    expect(readAheadOf('GET', '/configuration-versions/cv-1')?.key).to.deep.equal(['cv-1']);
    expect(readAheadOf('GET', '/runs/run-1/run-events')?.read).to.equal(readAheadOf('GET', '/runs/run-1')?.read);
    expect(readAheadOf('GET', '/policy-checks/polchk-1')?.key).to.deep.equal(['polchk-1']);
    expect(readAheadOf('GET', '/task-stages/ts-1')?.key).to.deep.equal(['ts-1']);
    expect(readAheadOf('GET', '/task-stages/ts-1')?.read).to.not.equal(readAheadOf('GET', '/policy-checks/polchk-1')?.read);
    expect(readAheadOf('POST', '/task-stages/ts-1/actions/override')).to.equal(null);
    expect(readAheadOf('GET', '/policy-checks/polchk-1/output')).to.equal(null);
    expect(readAheadOf('GET', '/configuration-versions/cv-1/download')).to.equal(null);
    expect(readAheadOf('POST', '/workspaces/ws-1/configuration-versions')?.key).to.deep.equal(['ws-1']);
    expect(readAheadOf('POST', '/workspaces/ws-1/configuration-versions')?.read).to.not.equal(readAheadOf('GET', '/workspaces/ws-1')?.read);
    expect(readAheadOf('GET', '/workspaces/ws-1/configuration-versions')).to.equal(null);
    expect(readAheadOf('GET', '/runs/run-1')?.read).to.not.equal(readAheadOf('GET', '/workspaces/ws-1')?.read);
    expect(readAheadOf('PATCH', '/workspaces/ws-1')).to.equal(null);
    expect(readAheadOf('GET', '/workspaces/ws-1/runs')).to.equal(null);
    expect(readAheadOf('DELETE', '/organizations/acme/workspaces/prod')).to.equal(null);
    expect(readAheadOf('GET', '/runs/%E0%A4%A')).to.equal(null);
  });

  it('is taken once, by its own read and key only', () => {
    const workspace = readAheadOf('GET', '/workspaces/ws-1')!;
    const run = readAheadOf('GET', '/runs/run-1')!;
    const row = { id: 'ws-1', organization_name: 'acme', membership_teams: [{ id: 'team-1', is_owners: true, organization_access: null }] };
    const ahead = new ReadAhead(workspace.read, ['ws-1'], row);
    expect(ahead.take(run.read, ['ws-1'])).to.equal(null);
    expect(ahead.take(workspace.read, ['ws-2'])).to.equal(null);
    expect(ahead.take(workspace.read, ['ws-1', 'more'])).to.equal(null);
    const taken = ahead.take<{ id: string; organization_name: string }>(workspace.read, ['ws-1']);
    expect(taken?.found).to.deep.equal({ row: { id: 'ws-1', organization_name: 'acme' }, teams: row.membership_teams });
    expect(ahead.take(workspace.read, ['ws-1'])).to.equal(null);
  });

  it('tells the guard when it found nothing, so that the guard answers 404 without reading again', () => {
    const workspace = readAheadOf('GET', '/workspaces/ws-9')!;
    expect(new ReadAhead(workspace.read, ['ws-9'], undefined).take(workspace.read, ['ws-9'])).to.deep.equal({ found: undefined });
  });
});
