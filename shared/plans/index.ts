// The public face of the plans feature (JSON plans: redaction, change counts and the stored JSON output), which server and workers call.
export { planJsonObject, redactedPlanObject } from './json-output.js';
