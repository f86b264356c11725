// Taking an account back (docs/decisions/14-trust-and-safety-second-round.md): password reset tokens, a session
// epoch that ends every idToken issued before it, and the lock an account gets after
// too many failed sign-ins from everywhere (only the reset link lifts it).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    // idTokens carry the epoch they were issued in; raising it refuses every older one.
    .addColumn('session_epoch', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('login_locked_at', 'timestamptz')
    .execute();
  await db.schema
    .createTable('password_resets')
    // sha256 of the token mailed; the token itself is never stored.
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('password_resets_user')
    .on('password_resets')
    .columns(['user_id', 'created_at'])
    .execute();
  // A secret shown once is never kept in a flash row (the column stays for messages).
  await sql`update dashboard_sessions set flash = null where flash ? 'secret'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('password_resets').execute();
  await db.schema.alterTable('users').dropColumn('login_locked_at').dropColumn('session_epoch').execute();
}
