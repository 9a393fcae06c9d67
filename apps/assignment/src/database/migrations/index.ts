/** assignment's migrations, in order. */
export const migrations = [];
