import { expect } from 'chai';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import * as prettier from 'prettier';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { harness } from '../helpers/harness.js';
import { createApp } from '../../server/app.js';
import { routeTable } from '../../server/route-table.js';
import { BOARD_PATH } from '../../server/board.js';
import { CONSOLE_PATH } from '../../server/console.js';

type Operation = {
  operationId: string;
  security: unknown[];
  requestBody?: { content: Record<string, { schema: { $ref: string } }> };
  parameters?: { name: string }[];
};

describe('API reference (GET /api/v2/openapi.json)', function () {
  this.timeout(30_000);

  let document: {
    openapi: string;
    paths: Record<string, Record<string, Operation>>;
    components: { schemas: Record<string, unknown> };
  };

  before(async () => {
    const res = await fetch(`${harness().baseUrl}/api/v2/openapi.json`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^application\/json/);
    document = await res.json();
  });

  it('is served without a token and validates as OpenAPI 3.1', async () => {
    expect(document.openapi).to.equal('3.1.0');
    const result = await new Validator().validate(structuredClone(document));
    expect(result.errors ?? [], JSON.stringify(result.errors)).to.deep.equal([]);
    expect(result.valid).to.equal(true);
  });

  it('describes every route of the application, with its path parameters, its token requirement and its body schema', () => {
    const routes = routeTable(createApp(harness().rt), [BOARD_PATH, CONSOLE_PATH]);
    expect(routes.length).to.be.greaterThan(100);
    const described = Object.entries(document.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
    );
    const expected = routes.map((r) => `${r.method} ${r.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`);
    expect(described.sort()).to.deep.equal([...new Set(expected)].sort());
    for (const route of routes) {
      const op = document.paths[route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')][route.method.toLowerCase()];
      expect(op.security, `${route.method} ${route.path}`).to.deep.equal(route.authenticated ? [{ token: [] }] : []);
      expect((op.parameters ?? []).map((p) => p.name)).to.deep.equal(
        [...route.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]),
      );
      // The console's sign-in API takes plain JSON, the rest JSON:API documents.
      const ref =
        op.requestBody?.content[
          route.path.startsWith('/api/console/') ? 'application/json' : 'application/vnd.api+json'
        ].schema.$ref;
      expect(ref, `${route.method} ${route.path}`).to.equal(
        route.schema ? `#/components/schemas/${route.schema}` : undefined,
      );
    }
    // Spot checks against what the API is known to do.
    expect(document.paths['/api/v2/ping'].get.security).to.deep.equal([]);
    expect(document.paths['/api/v2/runs'].post.requestBody!.content['application/vnd.api+json'].schema.$ref).to.equal(
      '#/components/schemas/run.create',
    );
    expect(document.paths['/api/v2/workspaces/{id}'].delete.security).to.deep.equal([{ token: [] }]);
  });

  it('holds request schemas that compile as JSON Schema 2020-12, the dialect of OpenAPI 3.1', () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    for (const [name, schema] of Object.entries(document.components.schemas)) {
      expect(() => ajv.compile(schema as object), name).to.not.throw();
    }
    // A schema from the document still refuses what the API refuses.
    const validate = ajv.compile(document.components.schemas['organization.create'] as object);
    expect(validate({ data: { type: 'organizations', attributes: { name: 'x' } } })).to.equal(false);
    expect(
      validate({ data: { type: 'organizations', attributes: { name: 'acme', email: 'ops@example.test' } } }),
    ).to.equal(true);
  });

  it("is the source of the console's API types (console/src/api-schema.ts), which are up to date", async () => {
    const file = join(process.cwd(), 'console', 'src', 'api-schema.ts');
    const generated = astToString(
      await openapiTS(structuredClone(document) as unknown as Parameters<typeof openapiTS>[0]),
    );
    const header = '// Generated from GET /api/v2/openapi.json by the API reference test: do not edit.\n';
    const wanted = await prettier.format(header + generated, {
      ...(await prettier.resolveConfig(file)),
      filepath: file,
    });
    // WRITE_API_TYPES=1 writes the file anew after an API change.
    if (process.env.WRITE_API_TYPES === '1') await writeFile(file, wanted);
    const current = await readFile(file, 'utf8').catch(() => '');
    expect(current === wanted, 'console/src/api-schema.ts is stale: run this test with WRITE_API_TYPES=1').to.equal(
      true,
    );
  });
});
