// The request for publishing access the staff operations' examples show.
import { EX } from '../../../http/examples.js';

export const EXAMPLE_PUBLISHING_REQUEST = {
  id: EX.publishingRequestId,
  status: 'pending',
  message: 'We run the Pune Tech Summit: two days of talks and workshops, tickets ₹499 to ₹1,999.',
  reason: null,
  createdAt: '2026-11-25T07:51:24.908Z',
  decidedAt: null,
};
