/** chat-notifications's migrations, in order. */
export const migrations = [];
