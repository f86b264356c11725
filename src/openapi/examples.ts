// The examples of the operations whose routes do not carry their own yet (src/http/examples.ts
// says what an entry holds; a route's own `config.examples` win). Shrinks as each operation moves
// into a file of its own with its examples beside it.
import { EX, type OperationExamples } from '../http/examples.js';

export const EXAMPLES: Readonly<Record<string, OperationExamples>> = {
  openPasswordResetLink: {
    params: { token: EX.resetToken },
    responses: {
      '200':
        '<!doctype html><html lang="en-IN"><head><title>Set a new password</title></head><body><form method="post">…</form></body></html>',
    },
  },
  getEmbedScript: {
    responses: {
      '200': '/* Ticket checkout embed. Paste into any page: <div data-svc-event="my-event"></div> … */',
    },
  },
  getHostedPageScript: {
    responses: {
      '200': '/* The hosted page’s form: the order summary and the button’s label as the buyer chooses … */',
    },
  },
  getHostedPageStyle: {
    responses: {
      '200': '/* The hosted checkout page. */\n*, *::before, *::after { box-sizing: border-box; }',
    },
  },
  openHostedPage: {
    params: { key: EX.checkoutKey },
    responses: {
      '200':
        '<!doctype html><html lang="en"><head><title>Pune Tech Summit 2027</title></head><body>…</body></html>',
    },
  },
  hostedQuote: {
    requests: {
      default: { value: { key: EX.checkoutKey, quantity: 2, ticketType: 'Student', promoCode: 'EARLYBIRD' } },
    },
    responses: {
      '200': {
        currency: 'INR',
        quantity: 2,
        unitPrice: 19900,
        subtotal: 39800,
        discount: 7960,
        total: 31840,
      },
    },
  },
  hostedRegister: {
    requests: {
      default: {
        value: {
          key: EX.checkoutKey,
          name: 'Rohan Das',
          email: 'rohan@example.in',
          customFields: { company: 'Acme' },
        },
      },
    },
    responses: {
      '201': {
        status: 'payment_required',
        orderId: EX.orderId,
        amount: 49900,
        currency: 'INR',
        key: 'rzp_test_sandbox',
        ticket: 'reg_JNxgg7P0eTWYfL6DBPvVTA.lRt-b3JkTyekK91q6qgDtP',
      },
    },
  },
  hostedRequestMemberCode: {
    requests: { default: { value: { key: EX.checkoutKey, email: 'rohan@example.in' } } },
    responses: { '202': { sent: true, expiresInMinutes: 10 } },
  },
  hostedVerifyMemberCode: {
    requests: { default: { value: { key: EX.checkoutKey, email: 'rohan@example.in', code: '482913' } } },
    responses: {
      '200': {
        proof:
          'mpf_eyJhIjoidXNyXzEiLCJtIjoidGVzdCIsImUiOiJyb2hhbkBleGFtcGxlLmluIiwieCI6MTc5NjAwMDAwMDAwMH0.Xq3v9kS2m1bN7cYtR4wPz8uLhJ0aEiDgF5oK6nQsT2U',
        expiresAt: '2026-12-01T11:00:00.000Z',
      },
    },
  },
  hostedSandboxCheckout: {
    requests: { default: { value: { key: EX.checkoutKey, orderId: EX.orderId, outcome: 'success' } } },
    responses: {
      '200': {
        razorpay_order_id: EX.orderId,
        razorpay_payment_id: EX.paymentId,
        razorpay_signature: 'e2856ab8064af5ae3b3ea88035f1b9caf6d09ca83fd8d10f4192ecc7f2d77a85',
      },
    },
  },
  hostedConfirmPayment: {
    requests: {
      default: {
        value: {
          key: EX.checkoutKey,
          razorpay_order_id: EX.orderId,
          razorpay_payment_id: EX.paymentId,
          razorpay_signature: EX.razorpaySignature,
        },
      },
    },
    responses: { '200': { status: 'confirmed' } },
  },
  hostedGetOrder: { params: { key: EX.checkoutKey }, responses: { '200': { status: 'confirmed' } } },
  hostedGetTicket: {
    responses: {
      '200': {
        status: 'confirmed',
        ticket: {
          ticketId: EX.registrationId,
          qr: 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAT8AAAE/AQAAAAAY3fkG',
          event: {
            title: 'Pune Tech Summit 2027',
            when: 'Sat 16 Jan 2027, 10:00 am – 5:30 pm IST',
            location: 'Hall B, Pune',
          },
          session: null,
          ticketType: 'General',
          quantity: 1,
          amount: 49900,
          currency: 'INR',
          calendarUrl:
            '/e/pune-tech-summit-2027/tickets/reg_Qm7Zx2Kv9Lt4Rb8Nc1Wd5a.Xy7Lq2Mz9Kv4Tb1Nc8Rd5e/calendar.ics',
          googleCalendarUrl:
            'https://calendar.google.com/calendar/render?action=TEMPLATE&text=Pune+Tech+Summit+2027&dates=20270116T043000Z%2F20270116T120000Z&details=Ticket+reg_JNxgg7P0eTWYfL6DBPvVTA+%28General%29.&ctz=Asia%2FKolkata&location=Hall+B%2C+Pune',
          wallet: [
            {
              kind: 'apple',
              label: 'Add to Apple Wallet',
              url: 'https://tickets.example.in/t/reg_Qm7Zx2Kv9Lt4Rb8Nc1Wd5a.Xy7Lq2Mz9Kv4Tb1Nc8Rd5e/pass.pkpass',
            },
          ],
        },
      },
    },
  },
  hostedGetTicketCalendar: {
    responses: {
      '200':
        'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//ticketing-service//tickets//EN\r\nBEGIN:VEVENT\r\nSUMMARY:Pune Tech Summit 2027\r\nDTSTART:20270116T043000Z\r\nDTEND:20270116T120000Z\r\nLOCATION:Hall B, Pune\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n',
    },
  },
  openHostedPaymentPage: {
    params: { order: EX.orderId },
    responses: {
      '200':
        '<!doctype html><html lang="en"><head><title>Pay for Pune Tech Summit 2027</title></head><body>…</body></html>',
    },
  },
  hostedJoinWaitlist: {
    requests: {
      default: { value: { key: EX.checkoutKey, name: 'Kiran Shah', email: 'kiran.shah@example.in' } },
    },
    responses: {
      '200':
        '<!doctype html><html lang="en"><head><title>You are on the waitlist</title></head><body>…</body></html>',
    },
  },
  getPlanPageScript: {
    responses: {
      '200': '/* The hosted plan page’s script. The page works without it (its steps are plain forms) … */',
    },
  },
  openPlanPage: {
    params: { slug: EX.planSlug, key: EX.checkoutKey },
    responses: {
      '200':
        '<!doctype html><html lang="en"><head><title>Annual membership – membership</title></head><body>…</body></html>',
    },
  },
  joinPlanFromPage: {
    params: { slug: EX.planSlug },
    requests: {
      default: { value: { key: EX.checkoutKey, name: 'Meera Iyer', email: 'meera.iyer@example.in' } },
    },
    responses: {
      '200':
        '<!doctype html><html lang="en"><head><title>Annual membership – membership</title></head><body>… Sandbox payment … ₹1,200 …</body></html>',
    },
  },
  planSandboxPay: {
    params: { slug: EX.planSlug },
    requests: { default: { value: { key: EX.checkoutKey, order: EX.orderId, outcome: 'success' } } },
    responses: {
      '200':
        '<!doctype html><html lang="en"><head><title>Annual membership – membership</title></head><body>… You are a member …</body></html>',
    },
  },
  planSandboxMandate: {
    params: { slug: EX.planSlug },
    requests: {
      default: { value: { key: EX.checkoutKey, subscription: EX.subscriptionId, outcome: 'approve' } },
    },
    responses: {
      '200':
        '<!doctype html><html lang="en"><head><title>Monthly – membership</title></head><body>… You are a member …</body></html>',
    },
  },
  planPaymentCallback: {
    params: { slug: EX.planSlug },
    requests: {
      default: {
        value: {
          razorpay_order_id: EX.orderId,
          razorpay_payment_id: EX.paymentId,
          razorpay_signature: EX.razorpaySignature,
        },
      },
    },
    responses: {
      '200':
        '<!doctype html><html lang="en"><head><title>Annual membership – membership</title></head><body>… You are a member …</body></html>',
    },
  },
  hostedPaymentCallback: {
    requests: {
      default: {
        value: {
          razorpay_order_id: EX.orderId,
          razorpay_payment_id: EX.paymentId,
          razorpay_signature: EX.razorpaySignature,
        },
      },
    },
    responses: {
      '200':
        '<!doctype html><html lang="en"><head><title>Payment received</title></head><body>…</body></html>',
    },
  },
  openAttendeePage: {
    responses: {
      '200':
        '<!doctype html><html lang="en"><head><title>Your ticket: Pune Tech Summit 2027</title></head><body>…</body></html>',
    },
  },
  attendeeTransfer: {
    requests: { default: { value: { csrf: EX.csrf, name: 'Dev Mehta', email: 'dev@example.in' } } },
    responses: {
      '200':
        '<!doctype html><html lang="en"><head><title>Ticket transferred</title></head><body>…</body></html>',
    },
  },
  attendeeCancel: {
    requests: { default: { value: { csrf: EX.csrf, confirm: 'yes' } } },
    responses: {
      '200':
        '<!doctype html><html lang="en"><head><title>Booking cancelled</title></head><body>…</body></html>',
    },
  },
  getApplePass: { responses: { '200': '(binary: a signed .pkpass zip)' } },
  getAttendeeDocument: { responses: { '200': '(binary: an A4 PDF)' } },
  openGoogleWalletLink: { responses: {} },
};
