import { describeFences } from '@media/testing';

describeFences('commercial', __dirname, { tables: ['clients', 'deals'] });
