import { describeFences } from '@media/testing';

describeFences('inventory', __dirname, { tables: ['bookings', 'booking_lines', 'line_assets'] });
