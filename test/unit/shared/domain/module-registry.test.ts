import { expect } from 'chai';
import {
  decodeString,
  HclSyntaxError,
  inspectArchiveFiles,
  inspectModule,
  isModuleFile,
  MAX_NESTING,
  moduleFileKind,
  parseHcl,
} from '../../../../shared/registry/module-config.rules.js';
import { compareSemver, isSemver, latestVersion, moduleStatus } from '../../../../shared/registry/machine.js';

describe('module registry rules', () => {
  describe('reading a module from its .tf files', () => {
    it('reads variables, outputs, resources and module calls, keeping expressions as written', () => {
      const details = inspectModule('', {
        'variables.tf': `# comment with { and "
variable "region" {
  description = "Where \\"it\\" runs: $\${escaped}"
  type        = string
  default     = "eu-west-1" // trailing comment
}
variable "tags" {
  type = map(object({
    owner = string
  }))
  default = {
    team = "core" # inside braces
    note = "}"
  }
  validation {
    condition     = length(var.tags) > 0
    error_message = "Tags are required."
  }
}
variable "password" {
  sensitive = true
  description = <<-EOT
    Multi-line
      description.
  EOT
}
/* variable "commented" {} */
`,
        'main.tf': `terraform {
  required_providers {
    local = { source = "hashicorp/local" }
  }
}
resource "local_file" "f" { content = "x" }
resource "terraform_data" "d" {
  input = [for s in ["a", "b"] : upper(s)]
}
data "local_file" "ignored" { filename = "x" }
module "child" {
  source  = "./modules/child"
}
output "file" {
  value       = local_file.f.filename
  description = "The file."
  sensitive   = false
}
`,
      });
      expect(details.inputs).to.deep.equal([
        {
          name: 'region',
          type: 'string',
          description: 'Where "it" runs: ${escaped}',
          default: '"eu-west-1"',
          required: false,
          sensitive: false,
        },
        {
          name: 'tags',
          type: 'map(object({\n    owner = string\n  }))',
          description: '',
          default: '{\n    team = "core" # inside braces\n    note = "}"\n  }',
          required: false,
          sensitive: false,
        },
        {
          name: 'password',
          type: '',
          description: 'Multi-line\n  description.\n',
          default: '',
          required: true,
          sensitive: true,
        },
      ]);
      expect(details.outputs).to.deep.equal([{ name: 'file', description: 'The file.', sensitive: false }]);
      expect(details.resources).to.deep.equal([
        { type: 'local_file', name: 'f' },
        { type: 'terraform_data', name: 'd' },
      ]);
      expect(details.dependencies).to.deep.equal([{ name: 'child', source: './modules/child', version: '' }]);
      expect(details.empty).to.equal(false);
    });

    it('names the file and line of a syntax error', () => {
      expect(() => inspectModule('modules/x', { 'main.tf': 'variable "a" {\n  type = string\n' })).to.throw(
        HclSyntaxError,
        'modules/x/main.tf: missing } on line 3',
      );
      expect(() => parseHcl('variable "a" {\n  description = "unterminated\n}\n')).to.throw(
        HclSyntaxError,
        /unterminated string on line 2/,
      );
      expect(() => parseHcl('}')).to.throw(HclSyntaxError, /unexpected \}/);
    });

    it('keeps a description with an interpolation as written', () => {
      expect(
        inspectModule('', { 'v.tf': 'variable "a" { description = "for \${terraform.workspace}" }\n' }).inputs[0]
          .description,
      ).to.equal('"for ${terraform.workspace}"');
    });

    it('decodes only plain string literals', () => {
      expect(decodeString('"a\\nb\\u00e9"')).to.equal('a\nbé');
      expect(decodeString('"$${x}"')).to.equal('${x}');
      expect(decodeString('"${var.x}"')).to.equal(null);
      expect(decodeString('var.x')).to.equal(null);
    });

    it('refuses nesting deeper than MAX_NESTING (blocks, brackets, interpolations) with a syntax error, not a stack overflow', () => {
      const deep = 20_000;
      expect(() => parseHcl(`${'a {\n'.repeat(deep)}${'}\n'.repeat(deep)}`)).to.throw(
        HclSyntaxError,
        /nesting deeper than 100 levels on line 101/,
      );
      expect(() => parseHcl(`a = ${'"${'.repeat(deep)}x${'}"'.repeat(deep)}\n`)).to.throw(
        HclSyntaxError,
        /nesting deeper than 100 levels/,
      );
      expect(() => parseHcl(`a = ${'['.repeat(deep)}${']'.repeat(deep)}\n`)).to.throw(
        HclSyntaxError,
        /nesting deeper than 100 levels/,
      );
      // Up to the limit is read.
      const fine = MAX_NESTING - 1;
      expect(parseHcl(`a {\n  b = ${'['.repeat(fine)}${']'.repeat(fine)}\n}\n`).blocks[0].attributes.b).to.have.length(
        2 * fine,
      );
      expect(parseHcl(`${'a {\n'.repeat(MAX_NESTING)}${'}\n'.repeat(MAX_NESTING)}`).blocks).to.have.length(1);
    });

    it('refuses escapes that name no character, wherever the string is, with the line', () => {
      for (const bad of ['\\uZZZZ', '\\U00110000', '\\uD800', '\\u12', '\\U0001F6']) {
        expect(() => parseHcl(`variable "${bad}" {}\n`), bad).to.throw(
          HclSyntaxError,
          /invalid escape sequence .* on line 1/,
        );
        expect(() => inspectModule('', { 'v.tf': `variable "x" {\n  description = "${bad}"\n}\n` }), bad).to.throw(
          HclSyntaxError,
          /v\.tf: invalid escape sequence .* on line 2/,
        );
        expect(() => parseHcl(`a = "\${f("${bad}")}"\n`), bad).to.throw(HclSyntaxError, /invalid escape sequence/);
      }
      expect(
        inspectModule('', { 'v.tf': 'variable "\\U0001F600" { description = "\\u00e9\\U0010FFFF" }\n' }).inputs[0],
      ).to.include({ name: '\u{1F600}', description: '\u00e9\u{10FFFF}' });
      // The exported decoder answers null (not a plain literal) rather than throwing.
      for (const bad of ['"\\uZZZZ"', '"\\U00110000"', '"\\u12"', '"\\"', '"a" + "b"'])
        expect(decodeString(bad), bad).to.equal(null);
    });

    it('refuses a NUL character in a .tf file, raw or where a label or description decodes to one, and drops it from a README', () => {
      expect(() => inspectModule('', { 'main.tf': 'variable "a" {}\nvariable "b\0" {}\n' })).to.throw(
        HclSyntaxError,
        'main.tf: a NUL character on line 2',
      );
      expect(() => parseHcl('variable "a\\u0000" {}\n')).to.throw(
        HclSyntaxError,
        /a block label cannot hold a NUL character on line 1/,
      );
      expect(() => inspectModule('', { 'v.tf': 'variable "x" { description = "a\\u0000b" }\n' })).to.throw(
        HclSyntaxError,
        'v.tf: variable "x": its description holds a NUL character',
      );
      expect(() =>
        inspectModule('', { 'o.tf': 'output "o" {\n  value = 1\n  description = "\\U00000000"\n}\n' }),
      ).to.throw(HclSyntaxError, /output "o": its description holds a NUL/);
      // A default is kept as written: the escape stays text.
      expect(inspectModule('', { 'v.tf': 'variable "x" { default = "\\u0000" }\n' }).inputs[0].default).to.equal(
        '"\\u0000"',
      );
      expect(
        inspectArchiveFiles(
          new Map([
            ['main.tf', 'variable "x" {}\n'],
            ['README.md', '# a\0b\n'],
          ]),
        ).root.readme,
      ).to.equal('# ab\n');
    });

    it('reads a heredoc of any length, and long strings in one pass', () => {
      const lines = 150_000;
      const text = `variable "x" {\n  description = <<-EOT\n${'    line\n'.repeat(lines)}  EOT\n}\n`;
      expect(inspectModule('', { 'v.tf': text }).inputs[0].description).to.equal('line\n'.repeat(lines));
      const long = 'x\\n'.repeat(200_000);
      expect(decodeString(`"${long}"`)).to.equal('x\n'.repeat(200_000));
    });

    it('splits an archive into the root module and modules/<name>/ submodules, with their READMEs', () => {
      const files = [
        'main.tf',
        'README.md',
        'modules/a/main.tf',
        'modules/a/README.md',
        'modules/a/deeper/x.tf',
        'examples/e/main.tf',
        'tests/t.tftest.hcl',
        'notes.txt',
      ];
      expect(files.filter(isModuleFile)).to.deep.equal([
        'main.tf',
        'README.md',
        'modules/a/main.tf',
        'modules/a/README.md',
      ]);
      expect(
        ['main.tf', 'modules/a/x.tf', 'readme', 'modules/a/README.md', 'MAIN.TF', 'x.tf.json'].map(moduleFileKind),
      ).to.deep.equal(['tf', 'tf', 'readme', 'readme', null, null]);
      const { root, submodules } = inspectArchiveFiles(
        new Map([
          ['main.tf', 'output "o" { value = 1 }\n'],
          ['README.md', '# root\n'],
          ['modules/a/main.tf', 'variable "v" {}\n'],
        ]),
      );
      expect([root.path, root.readme, root.outputs.length]).to.deep.equal(['', '# root\n', 1]);
      expect(submodules.map((s) => [s.path, s.inputs.map((i) => i.name)])).to.deep.equal([['modules/a', ['v']]]);
      expect(inspectArchiveFiles(new Map()).root.empty).to.equal(true);
    });
  });

  describe('versions', () => {
    it('accepts semantic versions only', () => {
      for (const v of ['1.0.0', '0.1.2', '1.0.0-beta.1', '1.0.0+build.5', '10.20.30-rc.1+x'])
        expect(isSemver(v), v).to.equal(true);
      for (const v of ['1.0', 'v1.0.0', '01.0.0', '1.0.0.0', '1.0.0-', 'latest', ''])
        expect(isSemver(v), v).to.equal(false);
    });

    it('orders by precedence and picks the latest release', () => {
      const sorted = [
        '1.0.0',
        '1.0.0-rc.1',
        '1.0.0-alpha',
        '0.9.9',
        '1.0.0-alpha.1',
        '1.0.0-beta.11',
        '1.0.0-beta.2',
        '1.10.0',
        '1.2.0',
      ].sort(compareSemver);
      expect(sorted).to.deep.equal([
        '0.9.9',
        '1.0.0-alpha',
        '1.0.0-alpha.1',
        '1.0.0-beta.2',
        '1.0.0-beta.11',
        '1.0.0-rc.1',
        '1.0.0',
        '1.2.0',
        '1.10.0',
      ]);
      expect(latestVersion(['1.0.0', '2.0.0-beta.1', '1.1.0'])).to.equal('1.1.0');
      expect(latestVersion(['2.0.0-beta.1', '2.0.0-alpha'])).to.equal('2.0.0-beta.1');
      expect(latestVersion([])).to.equal(null);
    });

    it("derives the module's status from its versions", () => {
      expect(moduleStatus([])).to.equal('pending');
      expect(moduleStatus(['pending'])).to.equal('pending');
      expect(moduleStatus(['reg_ingress_failed', 'ok'])).to.equal('setup_complete');
      expect(moduleStatus(['reg_ingress_failed'])).to.equal('setup_failed');
    });
  });
});
