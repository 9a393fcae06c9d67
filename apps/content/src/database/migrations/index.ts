/** content's migrations, in order. */
export const migrations = [];
