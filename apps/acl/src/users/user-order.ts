import { newestFirst, type KeysetOrder } from '@media/http';
import type { User } from './user.entity';

/** Newest first, ties by id (users and correspondents lists). */
export const NEWEST_JOINED_FIRST: KeysetOrder<User> = newestFirst('u.dateJoined', (u) => u.dateJoined);
