import type { NextFunction, Request, Response } from 'express';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { schemas, type SchemaName } from '../shared/schemas/index.js';
import { Unprocessable } from '../shared/errors.js';
import { VALIDATES } from './route-table.js';

// ajv-formats ships CommonJS; under NodeNext its default import is the module object.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
/** Every request schema, compiled once when the module loads and never changed after. */
const compiled: ReadonlyMap<SchemaName, ValidateFunction> = new Map((Object.keys(schemas) as SchemaName[]).map((name) => [name, ajv.compile(schemas[name])]));

function describe(e: ErrorObject): { detail: string; pointer: string } {
  if (e.keyword === 'required') {
    const missing = (e.params as { missingProperty: string }).missingProperty;
    const pointer = `${e.instancePath}/${missing}`;
    return { pointer, detail: `${pointer.split('/').filter(Boolean).join('.')} is required` };
  }
  const where = e.instancePath.split('/').filter(Boolean).join('.') || 'body';
  if (e.keyword === 'enum') {
    // An allowed empty string (a type that may be left empty) is not worth naming.
    const allowed = (e.params as { allowedValues: unknown[] }).allowedValues.filter((v) => v !== '').map(String).join(', ');
    return { pointer: e.instancePath, detail: `${where} must be one of: ${allowed}` };
  }
  if (e.keyword === 'const') {
    return { pointer: e.instancePath, detail: `${where} must be ${String((e.params as { allowedValue: unknown }).allowedValue)}` };
  }
  return { pointer: e.instancePath || '/', detail: `${where} ${e.message ?? 'is invalid'}` };
}

/** Checks a value against a named schema; throws 422 with one error per problem. */
export function check(name: SchemaName, value: unknown): void {
  const fn = compiled.get(name)!;
  if (fn(value)) return;
  // oneOf produces noise from each branch; keep the most specific message per pointer.
  const seen = new Set<string>();
  const errors = (fn.errors ?? [])
    .filter((e) => e.keyword !== 'oneOf' && e.keyword !== 'if')
    .map(describe)
    .filter((e) => (seen.has(e.pointer) ? false : (seen.add(e.pointer), true)));
  throw Unprocessable.many(errors.length ? errors : [{ detail: 'request body is invalid', pointer: '/' }]);
}

/** Express middleware validating req.body against a named schema. */
export const validate = (name: SchemaName) =>
  Object.assign(
    (req: Request, _res: Response, next: NextFunction): void => {
      check(name, req.body ?? {});
      next();
    },
    { [VALIDATES]: name },
  );
