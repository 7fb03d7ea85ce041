import { expect } from 'chai';
import { buildRunInput } from '../../../../shared/policies/run-input.js';
import { POLICY_RUN_DOCUMENT, policyRunSource } from '../../../helpers/policy-cli.js';

describe('policy run input document', () => {
  it('describes the run, its organization and workspace as TFE gives it to policies', () => {
    expect(buildRunInput(policyRunSource())).to.deep.equal(POLICY_RUN_DOCUMENT);
  });

  it('never carries variable values', () => {
    const src = policyRunSource();
    src.run.variables = [{ key: 'token', value: '"s3cr3t-run-value"' }];
    expect(JSON.stringify(buildRunInput(src))).not.to.include('s3cr3t');
  });

  it("keeps a workspace variable's category and sensitivity when the run sets it too", () => {
    const src = policyRunSource();
    src.run.variables = [{ key: 'db_password', value: '"x"' }];
    expect(buildRunInput(src).variables.db_password).to.deep.equal({ category: 'terraform', sensitive: true });
  });

  it('gives the VCS settings, tags, description and commit in snake_case', () => {
    const src = policyRunSource();
    src.workspace.vcs_repo = {
      identifier: 'acme/net',
      branch: 'main',
      'ingress-submodules': true,
      'oauth-token-id': 'ot-x',
    };
    src.workspace.tags = ['prod', 'network'];
    src.workspace.description = 'Core network';
    src.commitSha = 'abc123';
    src.createdBy = null;
    const doc = buildRunInput(src);
    expect(doc.workspace.vcs_repo).to.deep.equal({
      identifier: 'acme/net',
      display_identifier: 'acme/net',
      branch: 'main',
      ingress_submodules: true,
    });
    expect(doc.workspace).to.include({ description: 'Core network' });
    expect(doc.workspace.tags).to.deep.equal(['prod', 'network']);
    expect(doc).to.include({ commit_sha: 'abc123', created_by: null });
  });
});
