/** The token pair of docs/api/contract.md §1 (`POST /auth/token`, `POST /auth/refresh`). */
export interface TokenPair {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
}
