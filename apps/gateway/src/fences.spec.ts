import { describeFences } from '@media/testing';

// The gateway has no database: none of its folders writes a table.
describeFences('gateway', __dirname);
