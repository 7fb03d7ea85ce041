/** Builders for JSON Schemas of JSON:API request documents. */

type Schema = Record<string, unknown>;

export const linkage = (type: string): Schema => ({
  type: 'object',
  required: ['type', 'id'],
  properties: { type: { const: type }, id: { type: 'string', minLength: 1, maxLength: 200 } },
});

export const toOne = (type: string, nullable = false): Schema => ({
  type: 'object',
  required: ['data'],
  properties: { data: nullable ? { oneOf: [{ type: 'null' }, linkage(type)] } : linkage(type) },
});

export const toMany = (type: string): Schema => ({
  type: 'object',
  required: ['data'],
  properties: { data: { type: 'array', maxItems: 1000, items: linkage(type) } },
});

/** `{ data: { type, attributes, relationships } }` with the given attribute and relationship schemas. */
export function resourceDocument(
  types: string | string[],
  attributes: Record<string, Schema>,
  opts: {
    required?: string[];
    relationships?: Record<string, Schema>;
    requiredRelationships?: string[];
    typeMayBeEmpty?: boolean;
  } = {},
): Schema {
  const required = opts.required ?? [];
  const typeNames = Array.isArray(types) ? types : [types];
  const data: Schema = {
    type: 'object',
    required: [
      ...(opts.typeMayBeEmpty ? [] : ['type']),
      ...(required.length ? ['attributes'] : []),
      ...(opts.requiredRelationships?.length ? ['relationships'] : []),
    ],
    properties: {
      // typeMayBeEmpty: `type` may be left out or be '' (clients that send a document without a type).
      type: { enum: opts.typeMayBeEmpty ? [...typeNames, ''] : typeNames },
      attributes: { type: 'object', required, properties: attributes },
      ...(opts.relationships
        ? {
            relationships: {
              type: 'object',
              required: opts.requiredRelationships ?? [],
              properties: opts.relationships,
            },
          }
        : {}),
    },
  };
  return { type: 'object', required: ['data'], properties: { data } };
}

/** `{ data: [ {type, id}, ... ] }` as used by relationship endpoints. */
export const linkageList = (type: string): Schema => ({
  type: 'object',
  required: ['data'],
  properties: { data: { type: 'array', minItems: 1, maxItems: 1000, items: linkage(type) } },
});

export const NAME = { type: 'string', minLength: 1, maxLength: 90, pattern: '^[A-Za-z0-9_-]+$' };
export const BOOL = { type: 'boolean' };
export const TEXT = (max = 4000): Schema => ({ type: 'string', maxLength: max });
export const NULLABLE_TIME = { oneOf: [{ type: 'null' }, { type: 'string', format: 'date-time' }] };
