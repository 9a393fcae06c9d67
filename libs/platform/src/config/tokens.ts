/** Injection token of the app's validated config object. */
export const PLATFORM_CONFIG = Symbol('PLATFORM_CONFIG');
