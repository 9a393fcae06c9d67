import { displayName } from '../users/user.view';
import type { User } from '../users/user.entity';

/** The Correspondent resource of the seed. */
export interface CorrespondentView {
  id: string;
  name: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  phone_number: string | null;
  status: User['status'];
  date_joined: string;
}

export interface InvitedCorrespondentView extends CorrespondentView {
  invitation: { token: string; expires_at: string };
}

export function toCorrespondentView(user: User): CorrespondentView {
  return {
    id: user.id,
    name: displayName(user),
    email: user.email,
    first_name: user.firstName,
    last_name: user.lastName,
    phone_number: user.phoneNumber,
    status: user.status,
    date_joined: user.dateJoined.toISOString(),
  };
}
