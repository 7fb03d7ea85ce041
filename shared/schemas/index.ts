import { foundationSchemas } from './foundation.js';
import { configurationVersionSchemas } from './configuration-versions.js';

/** Every request body schema, by name; each later area adds its own map here. */
export const schemas = { ...foundationSchemas, ...configurationVersionSchemas } as const;
export type SchemaName = keyof typeof schemas;
