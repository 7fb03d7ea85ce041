import type { NextFunction, Request, Response } from 'express';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { schemas, type SchemaName } from '../shared/schemas/index.js';
import { InvalidDocument } from './errors.js';
import { VALIDATES } from './route-table.js';

// ajv-formats ships CommonJS; under NodeNext its default import is the module object.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

// verbose: a oneOf error then carries its branches, from which the message says what is allowed.
const ajv = new Ajv({ allErrors: true, strict: false, verbose: true });
addFormats(ajv);
/** Every request schema, compiled once when the module loads and never changed after. */
const compiled: ReadonlyMap<SchemaName, ValidateFunction> = new Map(
  (Object.keys(schemas) as SchemaName[]).map((name) => [name, ajv.compile(schemas[name])]),
);

type Branch = {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  pattern?: string;
  format?: string;
  maxLength?: number;
  minLength?: number;
  minimum?: number;
  maximum?: number;
};

/** One alternative of a oneOf in words, e.g. "a string matching ^[0-9a-f]{7,64}$". */
function allowedValue(b: Branch): string {
  if (b.const !== undefined) return JSON.stringify(b.const);
  if (b.enum) return `one of ${b.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  const types = Array.isArray(b.type) ? b.type : b.type ? [b.type] : [];
  const words = types.map((t) => {
    if (t === 'null') return 'null';
    if (t === 'string') {
      const limits = [
        b.format && `in ${b.format} format`,
        b.pattern && `matching ${b.pattern}`,
        b.minLength !== undefined && `of at least ${b.minLength} characters`,
        b.maxLength !== undefined && `of at most ${b.maxLength} characters`,
      ].filter(Boolean);
      return ['a string', ...limits].join(' ');
    }
    if (t === 'integer' || t === 'number') {
      const range = [
        b.minimum !== undefined && `at least ${b.minimum}`,
        b.maximum !== undefined && `at most ${b.maximum}`,
      ].filter(Boolean);
      return [t === 'integer' ? 'an integer' : 'a number', ...range].join(' ');
    }
    return { boolean: 'true or false', array: 'a list', object: 'an object' }[t] ?? t;
  });
  return words.length ? words.join(' or ') : 'a valid value';
}

function describe(e: ErrorObject): { detail: string; pointer: string } {
  if (e.keyword === 'oneOf' && Array.isArray(e.schema)) {
    const where = e.instancePath.split('/').filter(Boolean).join('.') || 'body';
    return {
      pointer: e.instancePath || '/',
      detail: `${where} must be ${(e.schema as Branch[]).map(allowedValue).join(', or ')}`,
    };
  }
  if (e.keyword === 'required') {
    const missing = (e.params as { missingProperty: string }).missingProperty;
    const pointer = `${e.instancePath}/${missing}`;
    return { pointer, detail: `${pointer.split('/').filter(Boolean).join('.')} is required` };
  }
  const where = e.instancePath.split('/').filter(Boolean).join('.') || 'body';
  if (e.keyword === 'enum') {
    // An allowed empty string (a type that may be left empty) is not worth naming.
    const allowed = (e.params as { allowedValues: unknown[] }).allowedValues
      .filter((v) => v !== '')
      .map(String)
      .join(', ');
    return { pointer: e.instancePath, detail: `${where} must be one of: ${allowed}` };
  }
  if (e.keyword === 'const') {
    return {
      pointer: e.instancePath,
      detail: `${where} must be ${String((e.params as { allowedValue: unknown }).allowedValue)}`,
    };
  }
  return { pointer: e.instancePath || '/', detail: `${where} ${e.message ?? 'is invalid'}` };
}

/** Checks a value against a named schema; throws 422 with one error per problem. */
export function check(name: SchemaName, value: unknown): void {
  const fn = compiled.get(name)!;
  if (fn(value)) return;
  // Each branch of a oneOf reports its own error at the oneOf's pointer ("must be null"): one
  // message naming every allowed alternative replaces them, unless the branch whose type matched
  // reports deeper errors: those are more specific.
  const all = fn.errors ?? [];
  const alternatives = new Set(all.filter((e) => e.keyword === 'oneOf').map((e) => e.instancePath));
  const seen = new Set<string>();
  const deeper = (path: string) => all.some((e) => e.instancePath.startsWith(`${path}/`));
  const summaries = all.filter((e) => e.keyword === 'oneOf' && !deeper(e.instancePath));
  const errors = [
    ...summaries,
    ...all.filter((e) => e.keyword !== 'oneOf' && e.keyword !== 'if' && !alternatives.has(e.instancePath)),
  ]
    .map(describe)
    .filter((e) => (seen.has(e.pointer) ? false : (seen.add(e.pointer), true)));
  throw new InvalidDocument(errors.length ? errors : [{ detail: 'request body is invalid', pointer: '/' }]);
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
