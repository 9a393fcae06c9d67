import { describeFences } from '@media/testing';

describeFences('documents', __dirname, { tables: ['documents', 'uploads'] });
