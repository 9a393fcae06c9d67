/** Injection token of the app's typed config (`@InjectConfig()` reads it). */
export const APP_CONFIG = Symbol('APP_CONFIG');

/** Injection token of the app's name (`acl`, `content`, …). */
export const APP_NAME = Symbol('APP_NAME');
