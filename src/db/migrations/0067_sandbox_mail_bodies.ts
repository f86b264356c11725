import { type Kysely, sql } from 'kysely';

// The Test inbox (docs/decisions/28-a-persons-day.md) shows test-mode mails as they would be sent: the HTML
// body beside the text, and each attachment's bytes, so the dashboard can render the mail and
// offer its files. Mails kept before this have neither: the inbox shows their text.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sandbox_emails').addColumn('html', 'text').execute();
  await db.schema
    .createTable('sandbox_email_files')
    .addColumn('email_id', 'text', (c) => c.notNull().references('sandbox_emails.id').onDelete('cascade'))
    .addColumn('idx', 'integer', (c) => c.notNull())
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('cid', 'text')
    .addColumn('content', 'bytea', (c) => c.notNull())
    .addPrimaryKeyConstraint('sandbox_email_files_pk', ['email_id', 'idx'])
    .execute();
  await sql`comment on table sandbox_email_files is 'the attachments of test-mode mails, for the Test inbox'`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sandbox_email_files').execute();
  await db.schema.alterTable('sandbox_emails').dropColumn('html').execute();
}
