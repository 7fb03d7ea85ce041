import type { Knex } from 'knex';

// Projects group an organization's workspaces. Every organization has exactly one default
// project, which cannot be deleted; existing organizations get theirs here.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('projects', (t) => {
    t.text('id').primary();
    t.text('organization_name').notNullable().references('organizations.name').onDelete('CASCADE').onUpdate('CASCADE');
    t.text('name').notNullable();
    t.text('description').notNullable().defaultTo('');
    t.boolean('is_default').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['organization_name', 'name']);
  });
  await knex.raw(
    'create unique index projects_one_default_per_organization on projects (organization_name) where is_default',
  );
  // The same alphabet and length as the service's other ids (prj- and 16 base58 characters).
  await knex.raw(`
    insert into projects (id, organization_name, name, is_default)
    select 'prj-' || (select string_agg(substr('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', 1 + floor(random() * 58)::int, 1), '')
                        from generate_series(1, 16) where o.name is not null),
           o.name, 'Default Project', true
      from organizations as o`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('projects');
}
