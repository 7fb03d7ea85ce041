import { expect } from 'chai';
import { policyPath, settlePolicy } from '../../../../shared/policies/rules.js';
import { pointerOf } from '../../../../server/errors.js';

describe('policy rules', () => {
  it('names the enforce path after the policy and its kind', () => {
    expect(policyPath('tags', 'sentinel')).to.equal('tags.sentinel');
    expect(policyPath('tags', 'opa')).to.equal('tags.rego');
  });

  it('settles the level from enforcement-level, enforce, or both when they agree', () => {
    expect(settlePolicy({ name: 'p', kind: 'sentinel', level: 'advisory' })).to.deep.equal({
      level: 'advisory',
      problems: [],
    });
    expect(
      settlePolicy({ name: 'p', kind: 'opa', query: 'data.x', enforce: [{ path: 'p.rego', mode: 'mandatory' }] }).level,
    ).to.equal('mandatory');
    expect(
      settlePolicy({
        name: 'p',
        kind: 'sentinel',
        level: 'advisory',
        enforce: [{ path: 'p.sentinel', mode: 'advisory' }],
      }).level,
    ).to.equal('advisory');
    const disagree = settlePolicy({
      name: 'p',
      kind: 'sentinel',
      level: 'advisory',
      enforce: [{ path: 'p.sentinel', mode: 'hard-mandatory' }],
    });
    expect(disagree.level).to.equal(null);
    expect(disagree.problems.map((p) => pointerOf(p.field))).to.deep.equal(['/data/attributes/enforce/0/mode']);
  });

  it('keeps the stored level on update when neither spelling is sent, and requires one on create', () => {
    expect(settlePolicy({ name: 'p', kind: 'sentinel' }, 'hard-mandatory')).to.deep.equal({
      level: 'hard-mandatory',
      problems: [],
    });
    expect(settlePolicy({ name: 'p', kind: 'sentinel' }).problems.map((p) => pointerOf(p.field))).to.deep.equal([
      '/data/attributes/enforcement-level',
    ]);
  });

  it('requires a query for opa (kept on update when not sent) and refuses one for sentinel', () => {
    expect(
      settlePolicy({ name: 'p', kind: 'opa', level: 'advisory' }).problems.map((p) => pointerOf(p.field)),
    ).to.deep.equal(['/data/attributes/query']);
    expect(settlePolicy({ name: 'p', kind: 'opa' }, 'advisory').problems).to.deep.equal([]);
    expect(
      settlePolicy({ name: 'p', kind: 'opa', query: null }, 'advisory').problems.map((p) => pointerOf(p.field)),
    ).to.deep.equal(['/data/attributes/query']);
    expect(
      settlePolicy({ name: 'p', kind: 'sentinel', query: 'data.x', level: 'advisory' }).problems.map((p) =>
        pointerOf(p.field),
      ),
    ).to.deep.equal(['/data/attributes/query']);
  });

  it('reports every problem at once, each with its pointer', () => {
    const { problems } = settlePolicy({
      name: 'p',
      kind: 'opa',
      level: 'hard-mandatory',
      enforce: [{ path: 'q.sentinel', mode: 'soft-mandatory' }],
    });
    expect(problems.map((p) => pointerOf(p.field))).to.deep.equal([
      '/data/attributes/query',
      '/data/attributes/enforcement-level',
      '/data/attributes/enforce/0/path',
      '/data/attributes/enforce/0/mode',
    ]);
  });
});
