// The reference the service is measured against: the routes a developer would write by hand
// with Fastify and pg, one query or one plain transaction each, no authentication, no
// validation beyond what the SQL needs, no caching. Started by the benches with PORT and
// DATABASE_URL; the pool has the service's default size (20).
//   POST /events/:id/register  BEGIN; conditional UPDATE of the event's capacity row; INSERT the
//                              registration; INSERT its mail job; COMMIT (201, or 409 when full)
//   GET  /events/:id/check-in?registrationId=  the ticket, its booking and its holder (200, 404)
//   POST /events/:id/check-in  { registrationId }  admits the holder if confirmed and not yet in
//                              (201; 200 when already in; 404)
// The register route uses its own tables (ref_*), which the bench creates; the door routes read
// the service's attendees and registrations.
import Fastify from 'fastify';
import pg from 'pg';

const db = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.POOL_SIZE ?? 20) });
const app = Fastify({ logger: false });

app.post<{ Params: { id: string }; Body: { name: string; email: string } }>('/events/:id/register', async (req, reply) => {
  const c = await db.connect();
  try {
    await c.query('begin');
    const seat = await c.query('update ref_events set taken = taken + 1 where id = $1 and (capacity = 0 or taken < capacity) returning id', [Number(req.params.id)]);
    if (seat.rowCount !== 1) {
      await c.query('rollback');
      return reply.code(409).send({ error: 'sold out', code: 'sold_out' });
    }
    const r = await c.query('insert into ref_registrations (event_id, name, email) values ($1, $2, $3) returning id', [Number(req.params.id), req.body.name, req.body.email]);
    await c.query(`insert into ref_jobs (topic, payload) values ('ticket.email', $1)`, [JSON.stringify({ registrationId: r.rows[0].id })]);
    await c.query('commit');
    return reply.code(201).send({ success: true, data: { id: String(r.rows[0].id) } });
  } catch (err) {
    await c.query('rollback').catch(() => {});
    throw err;
  } finally {
    c.release();
  }
});

app.get<{ Params: { id: string }; Querystring: { registrationId: string } }>('/events/:id/check-in', async (req, reply) => {
  const r = await db.query(
    `select r.id, r.status, r.ticket_type, a.name, a.checked_in_at
     from attendees a join registrations r on r.id = a.registration_id
     where a.id = $1 and r.event_id = $2`,
    [req.query.registrationId, req.params.id],
  );
  if (r.rowCount === 0) return reply.code(404).send({ error: 'not found', code: 'not_found' });
  return { success: true, data: r.rows[0] };
});

app.post<{ Params: { id: string }; Body: { registrationId: string } }>('/events/:id/check-in', async (req, reply) => {
  const r = await db.query(
    `update attendees a set checked_in_at = now()
     from registrations r
     where r.id = a.registration_id and a.id = $1 and r.event_id = $2 and r.status = 'confirmed' and a.checked_in_at is null
     returning a.id, a.name, a.checked_in_at`,
    [req.body.registrationId, req.params.id],
  );
  if (r.rowCount === 1) return reply.code(201).send({ success: true, data: r.rows[0] });
  const seen = await db.query(
    `select a.id, a.checked_in_at from attendees a join registrations r on r.id = a.registration_id where a.id = $1 and r.event_id = $2`,
    [req.body.registrationId, req.params.id],
  );
  if (seen.rowCount === 0) return reply.code(404).send({ error: 'not found', code: 'not_found' });
  return reply.code(200).send({ success: true, data: seen.rows[0] });
});

// The bare route: Fastify answering a constant, no database.
app.get('/', async () => ({ success: true, data: { ok: true } }));

await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.stdout.write('ready\n');
process.on('SIGTERM', () => {
  void app.close().then(() => db.end()).then(() => process.exit(0));
});
