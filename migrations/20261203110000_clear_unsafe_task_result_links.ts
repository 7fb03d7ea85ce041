import type { Knex } from 'knex';

// Run task results and outcomes carry a link their integration reported, which the console shows
// as a link. Callbacks now accept http(s) links only (or none); a link stored before then with
// another scheme (javascript:, data:, file:...) is removed, as it would run or open something
// other than a web page when clicked. The rule is written out here as it stood, not imported.
const SAFE_LINK = '^(https?://[^[:space:]]+)?$';

export async function up(knex: Knex): Promise<void> {
  for (const table of ['task_results', 'task_result_outcomes']) {
    await knex(table).whereNotNull('url').whereRaw('url !~ ?', [SAFE_LINK]).update({ url: null });
  }
}

// What was removed is not kept, so there is nothing to put back.
export async function down(): Promise<void> {}
