// The whole paid flow in test mode through the SDK, as an organiser's server would run it:
// sign up, make a test key, create a paid event, book it (step 1), pay the
// order in the sandbox (the buyer's checkout), confirm the booking (step 2), read it back.
// `node --import tsx sdk/example.ts http://localhost:3000` runs it against a service;
// test/sdk/example.test.ts runs it against a real server in `npm test`.
import { createTicketingClient, type Registration } from './index.js';

function ok<T>(r: { data?: T; error?: unknown; response: Response }, what: string): T {
  if (r.data === undefined) throw new Error(`${what}: ${r.response.status} ${JSON.stringify(r.error)}`);
  return r.data;
}

export async function paidBookingExample(baseUrl: string, email = `organiser-${Date.now()}@example.in`): Promise<Registration> {
  const anonymous = createTicketingClient({ baseUrl });
  const account = ok(await anonymous.signUp({ body: { email, password: 'a long enough password', name: 'Example Organiser' } }), 'signUp');
  const dashboard = createTicketingClient({ baseUrl, sessionToken: account.idToken });
  const key = ok(await dashboard.createApiKey({ body: { mode: 'test', class: 'full' } }), 'createApiKey').key;

  const api = createTicketingClient({ baseUrl, apiKey: key });
  const event = ok(await api.createEvent({ body: { title: 'SDK Meetup', description: 'Talks and chai.', startDate: '2027-01-16', location: 'Pune', price: 499, capacity: 50 } }), 'createEvent').data;
  // A test event takes bookings by key as a draft (publishing a live one needs staff's grant).

  const step1 = ok(await api.register({ params: { path: { id: event.id } }, body: { name: 'Asha Rao', email: 'asha@example.in' } }), 'register (step 1)');
  if (!('orderId' in step1) || !step1.orderId) throw new Error('a paid booking answers an order to pay');
  const paid = ok(await api.sandboxPay({ body: { orderId: step1.orderId, outcome: 'success' } }), 'sandboxPay');
  ok(
    await api.register({ params: { path: { id: event.id } }, body: { registrationId: step1.registrationId, orderId: step1.orderId, paymentId: paid.paymentId } }),
    'register (step 2)',
  );
  return ok(await api.getRegistration({ params: { path: { id: event.id, registrationId: step1.registrationId } } }), 'getRegistration').data;
}

if (process.argv[1]?.endsWith('example.ts') && process.argv[2]) {
  const registration = await paidBookingExample(process.argv[2]);
  console.log(`booked ${registration.id}: ${registration.status}, ${registration.amount} ${registration.currency}`);
}
