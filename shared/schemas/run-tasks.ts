import { BOOL, NAME, TEXT, resourceDocument, toOne } from './jsonapi.js';

const STAGE = { enum: ['pre_plan', 'post_plan', 'pre_apply', 'post_apply'] };
const URL_HTTP = { type: 'string', maxLength: 2000, pattern: '^https?://[^\\s]+$' };
/**
 * A link an integration reports with a result or an outcome, shown to users as a link: http(s)
 * only (a `javascript:` or `data:` link would run in the console when clicked), or empty for none.
 */
const RESULT_LINK_PATTERN = '^(https?://[^\\s]+)?$';
const RESULT_LINK = { type: 'string', maxLength: 2000, pattern: RESULT_LINK_PATTERN };
const NULLABLE_TEXT = (max: number) => ({ oneOf: [{ type: 'null' }, TEXT(max)] });

const ENFORCEMENT = { enum: ['advisory', 'mandatory'] };
const STAGES = { type: 'array', minItems: 1, maxItems: 4, uniqueItems: true, items: STAGE };

/** A task's global configuration; `null` (or omitted) keeps what is stored. */
const globalConfiguration = {
  oneOf: [
    { type: 'null' },
    {
      type: 'object',
      additionalProperties: false,
      properties: { enabled: BOOL, stages: STAGES, 'enforcement-level': ENFORCEMENT },
    },
  ],
};

const taskAttributes = {
  name: NAME,
  url: URL_HTTP,
  description: NULLABLE_TEXT(2000),
  category: { const: 'task' },
  'hmac-key': NULLABLE_TEXT(1000),
  enabled: BOOL,
  'global-configuration': globalConfiguration,
};

const workspaceTaskAttributes = {
  'enforcement-level': ENFORCEMENT,
  stage: STAGE,
  stages: STAGES,
};

const tag = {
  type: 'object',
  required: ['label'],
  properties: {
    label: { type: 'string', minLength: 1, maxLength: 200 },
    level: { enum: ['none', 'info', 'warning', 'error'] },
  },
};

const outcome = {
  type: 'object',
  required: ['type', 'attributes'],
  properties: {
    type: { const: 'task-result-outcomes' },
    attributes: {
      type: 'object',
      required: ['outcome-id', 'description'],
      properties: {
        'outcome-id': { type: 'string', minLength: 1, maxLength: 200 },
        description: { type: 'string', maxLength: 2000 },
        body: { type: 'string', maxLength: 5 * 1024 * 1024 },
        url: RESULT_LINK,
        tags: { type: 'object', maxProperties: 50, additionalProperties: { type: 'array', maxItems: 50, items: tag } },
      },
    },
  },
};

/** Request body schemas of run tasks, attachments and the integration's callback. */
export const runTaskSchemas = {
  'task.create': resourceDocument('tasks', taskAttributes, { required: ['name', 'url', 'category'] }),
  'task.update': resourceDocument('tasks', taskAttributes),
  'workspace-task.create': resourceDocument('workspace-tasks', workspaceTaskAttributes, {
    required: ['enforcement-level'],
    relationships: { task: toOne('tasks') },
    requiredRelationships: ['task'],
  }),
  'workspace-task.update': resourceDocument('workspace-tasks', workspaceTaskAttributes),
  'task-result.callback': resourceDocument(
    'task-results',
    { status: { enum: ['passed', 'failed', 'running'] }, message: TEXT(2000), url: RESULT_LINK },
    {
      required: ['status'],
      relationships: {
        outcomes: {
          type: 'object',
          required: ['data'],
          properties: { data: { type: 'array', maxItems: 100, items: outcome } },
        },
      },
    },
  ),
} as const;
