import type { KeysetOrder } from '@media/platform';
import type { User } from './user.entity';

/** Newest first, ties by id (users and correspondents lists, endpoint 7). */
export const NEWEST_JOINED_FIRST: KeysetOrder<User> = {
  columns: [
    { expression: 'u.dateJoined', direction: 'DESC', cast: 'timestamptz' },
    { expression: 'u.id', direction: 'DESC', cast: 'uuid' },
  ],
  key: (u) => [u.dateJoined.toISOString(), u.id],
};
