// The three fields Razorpay's checkout hands its handler: what the page confirms a payment
// with, and what the sandbox's stand-in answers.
import { Type } from 'typebox';

export const HandlerFields = {
  razorpay_order_id: Type.String({ maxLength: 100 }),
  razorpay_payment_id: Type.String({ maxLength: 100 }),
  razorpay_signature: Type.String({ maxLength: 200 }),
};
