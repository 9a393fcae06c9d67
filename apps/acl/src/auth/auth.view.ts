/** The token pair of CONTRACT §1 (`POST /auth/token`, `POST /auth/refresh`). */
export interface TokenPair {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
}
