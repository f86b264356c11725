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
};
