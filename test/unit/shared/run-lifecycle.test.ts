import { expect } from 'chai';
import knexFactory from 'knex';
import { RunLifecycle } from '../../../shared/runs/lifecycle.js';

describe('run lifecycle: SQL compiled once from what is registered', () => {
  // A knex instance that only builds SQL (it never connects).
  const db = knexFactory({ client: 'pg' });
  after(() => db.destroy());

  it('builds a condition once, keeps it (null too), and builds it again after a listener or hook is registered', () => {
    const lifecycle = new RunLifecycle();
    let builds = 0;
    const condition = () => {
      builds++;
      return lifecycle.concernsAny(db, { event: 'create', to: 'pending' }, 'candidate');
    };
    expect(lifecycle.compiledOnce('creation', condition)).to.deep.equal({ sql: 'false', bindings: [] });
    expect(lifecycle.compiledOnce('creation', condition)).to.deep.equal({ sql: 'false', bindings: [] });
    expect(builds).to.equal(1);

    lifecycle.onRunTransition(
      async () => undefined,
      (d, _move, row) =>
        d.raw(
          'exists (select 1 from notification_configurations c where c.workspace_id = ??.workspace_id and c.enabled = ?)',
          [row, true],
        ),
    );
    expect(lifecycle.compiledOnce('creation', condition)).to.deep.equal({
      sql: '(exists (select 1 from notification_configurations c where c.workspace_id = "candidate".workspace_id and c.enabled = ?))',
      bindings: [true],
    });
    expect(builds).to.equal(2);

    // A listener that must hear of every move: nothing to ask, and that answer is kept as well.
    lifecycle.onRunTransition(async () => undefined);
    expect(lifecycle.compiledOnce('creation', condition)).to.equal(null);
    expect(lifecycle.compiledOnce('creation', condition)).to.equal(null);
    expect(builds).to.equal(3);

    lifecycle.registerStageHook(
      'pre_plan',
      async () => 'pass',
      (d, runId) => d.raw('exists (select 1 from task_stages s where s.run_id = ?)', [runId]),
    );
    const stage = () => lifecycle.stageInterestCondition(db, 'pre_plan', db.raw('??.id', ['candidate']));
    expect(lifecycle.compiledOnce('stage', stage)).to.deep.equal({
      sql: '(exists (select 1 from task_stages s where s.run_id = "candidate".id))',
      bindings: [],
    });
  });
});
