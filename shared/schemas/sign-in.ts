/** Request bodies of the console's sign-in endpoints (plain JSON, not JSON:API documents). */

const STRING = (maxLength: number) => ({ type: 'string', minLength: 1, maxLength });

export const signInSchemas = {
  'console.session': {
    type: 'object',
    required: ['username', 'password'],
    properties: { username: STRING(254), password: STRING(4096) },
  },
  'console.password': {
    type: 'object',
    required: ['token', 'password'],
    properties: { token: STRING(200), password: { type: 'string', maxLength: 4096 } },
  },
  'console.password-reset': {
    type: 'object',
    required: ['email'],
    properties: { email: { type: 'string', minLength: 3, maxLength: 254 } },
  },
  'console.oauth-authorize': {
    type: 'object',
    required: ['client_id', 'redirect_uri', 'code_challenge', 'code_challenge_method', 'response_type'],
    properties: {
      client_id: STRING(200),
      redirect_uri: STRING(2000),
      state: { type: 'string', maxLength: 2000 },
      code_challenge: STRING(200),
      code_challenge_method: STRING(20),
      response_type: STRING(20),
    },
  },
} as const;
