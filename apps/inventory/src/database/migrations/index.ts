import { CreateBookings1764100000000 } from './1764100000000-create-bookings';
import { CreateRevenueDays1764100000001 } from './1764100000001-create-revenue-days';

/** inventory's migrations, in order. */
export const migrations = [CreateBookings1764100000000, CreateRevenueDays1764100000001];
