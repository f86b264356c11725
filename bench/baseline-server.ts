// The baselines the service is measured against: the routes a careful engineer writes by hand
// with Fastify and pg, without batching, on tables of their own (ref_*, created by the benches,
// no triggers), each request one named prepared statement; no authentication, no validation
// beyond what the SQL needs, no caching. Started by the benches with PORT and DATABASE_URL; the
// pool has the service's default size (20).
//   POST /events/:id/register        one statement: a CTE that takes a seat on the event's
//                                    capacity row if there is room, inserts the registration and
//                                    its mail job (201, or 409 when full)
//   POST /events/:id/register-steps  the same writes as five round trips: BEGIN; UPDATE; INSERT;
//                                    INSERT; COMMIT, the capacity row locked across three of them
//   GET  /events/:id/check-in?registrationId=  one SELECT of the ticket (200, 404)
//   POST /events/:id/check-in  { registrationId }  one statement: a conditional UPDATE admits a
//                              confirmed ticket not yet in, once (201); else the ticket as it is
//                              (200 already in, 409 not admissible, 404)
//   GET  /events/:id/seats/statuses  one SELECT of the event's seats that are not available
//                              (a partial index) joined to its seat count: every seat's status as
//                              one letter in plan order (a, h, s, b) and the counts
//   POST /events/:id/seats/hold  { category }  best available, one seat: one statement takes the
//                              free seat of the category nearest the stage (lowest rank) that no
//                              other hold is taking (SELECT … FOR UPDATE SKIP LOCKED, then UPDATE)
//                              and answers 201 with a hold token, or 409 when none is free. A hold
//                              does not lapse here (the bench books each at once).
//   POST /events/:id/seats/book  { holdToken, name, email }  one statement: the held seat becomes
//                              sold, the registration and its mail job are inserted (201, or 409
//                              when the token holds no seat)
//   GET  /                     a constant, no database: what Fastify alone costs
// Tables: ref_events (id int, capacity, taken), ref_registrations, ref_jobs, ref_tickets
// (id text, event_id text, status, ticket_type, name, email, checked_in_at), ref_seat_events
// (id, seats), ref_event_seats (event_id, seat_id, category, rank, status, hold_token,
// registration_id: every seat of an event, made with the event, a seat's id its index in plan
// order); see bench/lib.ts.
import { randomBytes } from 'node:crypto';
import Fastify from 'fastify';
import pg from 'pg';

const db = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.POOL_SIZE ?? 20),
});
const app = Fastify({ logger: false });

const register: Omit<pg.QueryConfig, 'values'> = {
  name: 'ref_register',
  text: `with seat as (
           update ref_events set taken = taken + 1 where id = $1 and (capacity = 0 or taken < capacity) returning id
         ), reg as (
           insert into ref_registrations (event_id, name, email) select id, $2, $3 from seat returning id
         ), job as (
           insert into ref_jobs (topic, payload) select 'ticket.email', jsonb_build_object('registrationId', id) from reg
         )
         select id from reg`,
};

app.post<{ Params: { id: string }; Body: { name: string; email: string } }>(
  '/events/:id/register',
  async (req, reply) => {
    const r = await db.query({ ...register, values: [Number(req.params.id), req.body.name, req.body.email] });
    if (r.rowCount !== 1) return reply.code(409).send({ error: 'sold out', code: 'sold_out' });
    return reply.code(201).send({ success: true, data: { id: String(r.rows[0].id) } });
  },
);

const steps = {
  seat: {
    name: 'ref_steps_seat',
    text: 'update ref_events set taken = taken + 1 where id = $1 and (capacity = 0 or taken < capacity) returning id',
  },
  registration: {
    name: 'ref_steps_registration',
    text: 'insert into ref_registrations (event_id, name, email) values ($1, $2, $3) returning id',
  },
  job: { name: 'ref_steps_job', text: `insert into ref_jobs (topic, payload) values ('ticket.email', $1)` },
};

app.post<{ Params: { id: string }; Body: { name: string; email: string } }>(
  '/events/:id/register-steps',
  async (req, reply) => {
    const c = await db.connect();
    try {
      await c.query('begin');
      const seat = await c.query({ ...steps.seat, values: [Number(req.params.id)] });
      if (seat.rowCount !== 1) {
        await c.query('rollback');
        return reply.code(409).send({ error: 'sold out', code: 'sold_out' });
      }
      const r = await c.query({
        ...steps.registration,
        values: [Number(req.params.id), req.body.name, req.body.email],
      });
      await c.query({ ...steps.job, values: [JSON.stringify({ registrationId: r.rows[0].id })] });
      await c.query('commit');
      return reply.code(201).send({ success: true, data: { id: String(r.rows[0].id) } });
    } catch (err) {
      await c.query('rollback').catch(() => {});
      throw err;
    } finally {
      c.release();
    }
  },
);

const lookup = {
  name: 'ref_lookup',
  text: 'select id, status, ticket_type, name, checked_in_at from ref_tickets where id = $1 and event_id = $2',
};

app.get<{ Params: { id: string }; Querystring: { registrationId: string } }>(
  '/events/:id/check-in',
  async (req, reply) => {
    const r = await db.query({ ...lookup, values: [req.query.registrationId, req.params.id] });
    if (r.rowCount === 0) return reply.code(404).send({ error: 'not found', code: 'not_found' });
    return { success: true, data: r.rows[0] };
  },
);

// The UPDATE's own WHERE decides the admit, so of two scans of one ticket at once exactly one
// admits (the second, after waiting on the row lock, re-reads it and finds it in). When nothing
// was admitted the ticket is read as it stands.
const admit = {
  name: 'ref_admit',
  text: `with admitted as (
           update ref_tickets set checked_in_at = now()
           where id = $1 and event_id = $2 and status = 'confirmed' and checked_in_at is null
           returning id, status, ticket_type, name, checked_in_at
         )
         select true as admitted, * from admitted
         union all
         select false, id, status, ticket_type, name, checked_in_at from ref_tickets
         where id = $1 and event_id = $2 and not exists (select 1 from admitted)`,
};

app.post<{ Params: { id: string }; Body: { registrationId: string } }>(
  '/events/:id/check-in',
  async (req, reply) => {
    const r = await db.query({ ...admit, values: [req.body.registrationId, req.params.id] });
    if (r.rowCount === 0) return reply.code(404).send({ error: 'not found', code: 'not_found' });
    const { admitted, ...ticket } = r.rows[0];
    if (admitted) return reply.code(201).send({ success: true, data: ticket });
    if (ticket.status !== 'confirmed')
      return reply.code(409).send({ error: 'not admissible', code: 'not_admissible' });
    return reply.code(200).send({ success: true, data: ticket });
  },
);

const statuses = {
  name: 'ref_seat_statuses',
  text: `select e.seats, s.seat_id, s.status
         from ref_seat_events e
         left join ref_event_seats s on s.event_id = e.id and s.status <> 'available'
         where e.id = $1`,
};
const LETTER: Record<string, number> = { held: 0x68, sold: 0x73, blocked: 0x62 };

app.get<{ Params: { id: string } }>('/events/:id/seats/statuses', async (req, reply) => {
  const r = await db.query<{ seats: number; seat_id: number | null; status: string | null }>({
    ...statuses,
    values: [Number(req.params.id)],
  });
  if (r.rowCount === 0) return reply.code(404).send({ error: 'not found', code: 'not_found' });
  const seats = r.rows[0]!.seats;
  const letters = Buffer.alloc(seats, 0x61);
  const counts = { available: seats, held: 0, sold: 0, blocked: 0 };
  for (const row of r.rows) {
    if (row.seat_id === null || row.status === null) continue;
    letters[row.seat_id] = LETTER[row.status]!;
    counts.available--;
    counts[row.status as 'held' | 'sold' | 'blocked']++;
  }
  return { success: true, data: { counts, statuses: letters.toString('latin1') } };
});

// The free seat of the category with the lowest rank (nearest the stage) that no concurrent hold
// has locked: concurrent buyers each take another seat instead of all queueing for the same one.
const hold = {
  name: 'ref_seat_hold',
  text: `with pick as (
           select event_id, seat_id from ref_event_seats
           where event_id = $1 and category = $2 and status = 'available'
           order by rank
           limit 1
           for update skip locked
         )
         update ref_event_seats s set status = 'held', hold_token = $3
         from pick where s.event_id = pick.event_id and s.seat_id = pick.seat_id
         returning s.seat_id`,
};

app.post<{ Params: { id: string }; Body: { category: string } }>(
  '/events/:id/seats/hold',
  async (req, reply) => {
    const token = `hold_${randomBytes(24).toString('base64url')}`;
    const r = await db.query<{ seat_id: number }>({
      ...hold,
      values: [Number(req.params.id), req.body.category, token],
    });
    if (r.rowCount !== 1) return reply.code(409).send({ error: 'no seat free', code: 'seats_unavailable' });
    return reply.code(201).send({ success: true, data: { holdToken: token, seats: [r.rows[0]!.seat_id] } });
  },
);

// The held seat sold, its registration and mail job inserted, in one statement; the
// registration's id is drawn first so the seat can name it.
const book = {
  name: 'ref_seat_book',
  text: `with reg_id as (
           select nextval('ref_registrations_id_seq') as id
         ), seat as (
           update ref_event_seats s set status = 'sold', registration_id = reg_id.id
           from reg_id
           where s.event_id = $1 and s.hold_token = $2 and s.status = 'held'
           returning s.seat_id, reg_id.id
         ), reg as (
           insert into ref_registrations (id, event_id, name, email) select id, $1, $3, $4 from seat returning id
         ), job as (
           insert into ref_jobs (topic, payload) select 'ticket.email', jsonb_build_object('registrationId', id) from reg
         )
         select seat_id, id from seat`,
};

app.post<{ Params: { id: string }; Body: { holdToken: string; name: string; email: string } }>(
  '/events/:id/seats/book',
  async (req, reply) => {
    const r = await db.query<{ seat_id: number; id: string }>({
      ...book,
      values: [Number(req.params.id), req.body.holdToken, req.body.name, req.body.email],
    });
    if (r.rowCount !== 1) return reply.code(409).send({ error: 'no such hold', code: 'seat_hold_lapsed' });
    return reply
      .code(201)
      .send({ success: true, data: { id: String(r.rows[0]!.id), seats: [r.rows[0]!.seat_id] } });
  },
);

app.get('/', async () => ({ success: true, data: { ok: true } }));

await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.stdout.write('ready\n');
process.on('SIGTERM', () => {
  void app
    .close()
    .then(() => db.end())
    .then(() => process.exit(0));
});
