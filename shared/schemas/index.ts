import { foundationSchemas } from './foundation.js';

/** Every request body schema, by name; each later area adds its own map here. */
export const schemas = { ...foundationSchemas } as const;
export type SchemaName = keyof typeof schemas;
