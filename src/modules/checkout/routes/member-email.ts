// The hosted page's members-only code operations ask for and check a code for this address.
import { Type } from 'typebox';

export const MemberEmail = Type.String({
  minLength: 3,
  maxLength: 254,
  description: 'The address the booking is for: the member’s address.',
});
