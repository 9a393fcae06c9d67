/**
 * `@media/app-clients`: typed callers of other apps over NATS (acl, documents).
 */
// Clients of acl and documents; the documents this app saw deleted
export { AclClient } from './acl.client';
export { DocumentsClient } from './documents.client';

// Used by the libraries above this one
export { unknownDocument } from './documents.client';
