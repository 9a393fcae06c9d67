/** An enveloped success body (docs/api/contract.md §3: chat-notifications answers this way): `{success, message, data}`. */
export interface Envelope<T> {
  success: true;
  message: string;
  data: T;
}

export function envelope<T>(message: string, data: T): Envelope<T> {
  return { success: true, message, data };
}
