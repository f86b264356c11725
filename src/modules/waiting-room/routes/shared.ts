// What the waiting room's routes share.
import { Type } from 'typebox';

export const E = Type.Ref('Error');
export const Slug = Type.Object({ slug: Type.String({ maxLength: 80, description: 'The event’s slug.' }) });
