// Seating plans: an account's reusable plans, made from a grid or imported, read and replaced.
// One operation per file under routes/.
import { routes } from '../../http/operation.js';
import { createSeatingPlan } from './routes/create-seating-plan.js';
import { getSeatingPlan } from './routes/get-seating-plan.js';
import { listSeatingPlans } from './routes/list-seating-plans.js';
import { updateSeatingPlan } from './routes/update-seating-plan.js';
import type { SeatingDeps } from './seating-plans.js';

export const seatingRoutes = routes<SeatingDeps>([
  listSeatingPlans,
  createSeatingPlan,
  getSeatingPlan,
  updateSeatingPlan,
]);
