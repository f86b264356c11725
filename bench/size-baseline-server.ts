// The baseline of `npm run bench:size`: routes a careful engineer writes by hand with Fastify
// and pg on the ref_size_* tables (bench/size-ref.ts), answering the questions the service's
// routes answer, each request named prepared statements, no authentication, no caching, no
// batching. Started by the bench with PORT and DATABASE_URL; the pool has the service's default
// size (20).
//   GET /events/:id/registrations[?after=<id>]  a page of 100, oldest first, by keyset on
//       (created_at, id), each with its people; the event's count from its own row
//   GET /events/:id/analytics     counts by status, revenue and admitted bookings: one GROUP BY
//       on an index-only scan; seats taken from the event's row
//   GET /accounts/:n/audit        the account's 100 newest audit entries
//   GET /accounts/:n/events       the account's 50 first events in the dashboard's order and
//       how many there are, as an HTML table (the first page of the dashboard's list)
//   GET /events/:id/recent        the 50 newest registrations with their people, as an HTML
//       table (the dashboard's registrations page)
//   GET /events/:id/export        every registration as CSV, oldest first, read through a
//       server-side cursor (DECLARE … FETCH 1000) and streamed
import Fastify from 'fastify';
import pg from 'pg';

const db = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.POOL_SIZE ?? 20),
});
const app = Fastify({ logger: false });

const PEOPLE = `(select coalesce(json_agg(json_build_object('idx', a.idx, 'name', a.name, 'email', a.email,
    'checkedIn', a.checked_in_at is not null) order by a.idx), '[]') from ref_size_attendees a where a.registration_id = r.id)`;
const COLUMNS = `r.id, r.status, r.name, r.email, r.phone, r.quantity, r.amount_paise, r.answer, r.created_at, r.confirmed_at, r.cancelled_at`;

const first = {
  name: 'size_first',
  text: `select ${COLUMNS}, ${PEOPLE} as people from ref_size_registrations r
         where r.event_id = $1 order by r.created_at, r.id limit 101`,
};
const after = {
  name: 'size_after',
  text: `select ${COLUMNS}, ${PEOPLE} as people from ref_size_registrations r
         where r.event_id = $1 and (r.created_at, r.id) > (select c.created_at, c.id from ref_size_registrations c where c.id = $2)
         order by r.created_at, r.id limit 101`,
};
const count = {
  name: 'size_count',
  text: 'select registrations, taken, capacity from ref_size_events where id = $1',
};

app.get<{ Params: { id: string }; Querystring: { after?: string } }>(
  '/events/:id/registrations',
  async (req, reply) => {
    const id = Number(req.params.id);
    const [rows, event] = await Promise.all([
      req.query.after === undefined
        ? db.query({ ...first, values: [id] })
        : db.query({ ...after, values: [id, req.query.after] }),
      db.query({ ...count, values: [id] }),
    ]);
    if (event.rowCount === 0) return reply.code(404).send({ error: 'not found', code: 'not_found' });
    const data = rows.rows.slice(0, 100);
    const more = rows.rows.length > 100;
    return {
      success: true,
      data,
      count: event.rows[0].registrations,
      hasMore: more,
      nextCursor: more ? String(data[data.length - 1].id) : null,
    };
  },
);

const analytics = {
  name: 'size_analytics',
  text: `select status, count(*)::int as n, coalesce(sum(amount_paise), 0)::bigint as paise, count(checked_in_at)::int as admitted
         from ref_size_registrations where event_id = $1 group by status`,
};

app.get<{ Params: { id: string } }>('/events/:id/analytics', async (req, reply) => {
  const id = Number(req.params.id);
  const [counts, event] = await Promise.all([
    db.query({ ...analytics, values: [id] }),
    db.query({ ...count, values: [id] }),
  ]);
  if (event.rowCount === 0) return reply.code(404).send({ error: 'not found', code: 'not_found' });
  const by = (s: string) => counts.rows.find((r) => r.status === s) ?? { n: 0, paise: 0, admitted: 0 };
  const total = counts.rows.reduce((s, r) => s + r.n, 0);
  return {
    eventId: id,
    totalRegistrations: total,
    confirmedCount: by('confirmed').n,
    pendingCount: by('pending').n,
    cancelledCount: by('cancelled').n,
    refundedCount: by('refunded').n,
    checkedInCount: counts.rows.reduce((s, r) => s + r.admitted, 0),
    totalRevenue: Number(by('confirmed').paise) / 100,
    capacity: event.rows[0].capacity,
    seatsTaken: event.rows[0].taken,
  };
});

const audit = {
  name: 'size_audit',
  text: 'select seq, action, target, before, after, at from ref_size_audit where account = $1 order by seq desc limit 101',
};

app.get<{ Params: { n: string } }>('/accounts/:n/audit', async (req) => {
  const rows = (await db.query({ ...audit, values: [Number(req.params.n)] })).rows;
  const data = rows.slice(0, 100);
  return {
    success: true,
    data,
    hasMore: rows.length > 100,
    nextCursor: rows.length > 100 ? String(data[99].seq) : null,
  };
});

const esc = (v: unknown) => String(v ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const page = (title: string, head: string[], rows: unknown[][]) =>
  `<!doctype html><html><head><title>${esc(title)}</title></head><body><h1>${esc(title)}</h1><table><thead><tr>${head
    .map((h) => `<th>${esc(h)}</th>`)
    .join('')}</tr></thead><tbody>${rows
    .map((r) => `<tr>${r.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`)
    .join('')}</tbody></table></body></html>`;

const events = {
  name: 'size_events',
  text: `select id, title, start_at, capacity, taken, registrations from ref_size_events
         where account = $1 order by start_at desc, created_at desc, id limit 50`,
};
const eventCount = {
  name: 'size_event_count',
  text: 'select count(*)::int as n from ref_size_events where account = $1',
};

app.get<{ Params: { n: string } }>('/accounts/:n/events', async (req, reply) => {
  const values = [Number(req.params.n)];
  const [rows, count] = await Promise.all([
    db.query({ ...events, values }).then((r) => r.rows),
    db.query({ ...eventCount, values }).then((r) => r.rows[0].n as number),
  ]);
  const body = page(
    `Events 1–${rows.length} of ${count}`,
    ['event', 'starts', 'capacity', 'taken', 'registrations'],
    rows.map((e) => [e.title, e.start_at.toISOString(), e.capacity || 'no limit', e.taken, e.registrations]),
  );
  return reply.type('text/html; charset=utf-8').send(body);
});

const recent = {
  name: 'size_recent',
  text: `select ${COLUMNS}, ${PEOPLE} as people from ref_size_registrations r
         where r.event_id = $1 order by r.created_at desc, r.id desc limit 51`,
};

app.get<{ Params: { id: string } }>('/events/:id/recent', async (req, reply) => {
  const rows = (await db.query({ ...recent, values: [Number(req.params.id)] })).rows.slice(0, 50);
  const body = page(
    'Registrations',
    ['name', 'email', 'status', 'people', 'booked'],
    rows.map((r) => [r.name, r.email, r.status, r.people.length, r.created_at.toISOString()]),
  );
  return reply.type('text/html; charset=utf-8').send(body);
});

const csv = (v: unknown) => {
  if (v === null || v === undefined) return '';
  const s = v instanceof Date ? v.toISOString() : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
};
const HEAD =
  'registration_id,status,name,email,phone,quantity,team_members,amount,answer,checked_in,booked_at,confirmed_at,cancelled_at';

app.get<{ Params: { id: string } }>('/events/:id/export', async (req, reply) => {
  // The answer is written here, on the socket, as the cursor's batches come.
  reply.hijack();
  const c = await db.connect();
  try {
    await c.query('begin');
    await c.query({
      text: `declare export no scroll cursor for
             select r.id, r.status, r.name, r.email, r.phone, r.quantity, r.amount_paise, r.answer, r.checked_in_at,
               r.created_at, r.confirmed_at, r.cancelled_at,
               (select string_agg(a.name || ' <' || a.email || '>', '; ' order by a.idx) from ref_size_attendees a
                 where a.registration_id = r.id and a.idx > 0) as team
             from ref_size_registrations r where r.event_id = $1 order by r.created_at, r.id`,
      values: [Number(req.params.id)],
    });
    reply.raw.writeHead(200, { 'content-type': 'text/csv; charset=utf-8' });
    reply.raw.write(`${HEAD}\r\n`);
    for (;;) {
      const batch = (await c.query('fetch 1000 from export')).rows;
      if (batch.length === 0) break;
      const text = batch
        .map((r) =>
          [
            r.id,
            r.status,
            r.name,
            r.email,
            r.phone,
            r.quantity,
            r.team,
            (r.amount_paise / 100).toFixed(2),
            r.answer,
            r.checked_in_at ? 'yes' : 'no',
            r.created_at,
            r.confirmed_at,
            r.cancelled_at,
          ]
            .map(csv)
            .join(','),
        )
        .join('\r\n');
      if (!reply.raw.write(`${text}\r\n`)) await new Promise((r) => reply.raw.once('drain', r));
    }
    await c.query('commit');
  } catch (err) {
    await c.query('rollback').catch(() => {});
    // Half an answer must not pass for a whole one: the connection is cut.
    reply.raw.destroy(err as Error);
    return;
  } finally {
    c.release();
  }
  reply.raw.end();
});

await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.stdout.write('ready\n');
process.on('SIGTERM', () => {
  void app
    .close()
    .then(() => db.end())
    .then(() => process.exit(0));
});
